/**
 * cors 2.8's options (lib/index.js) as @fastify/cors 11 takes them (index.js), so that the plugin
 * sends the same headers on the same requests (docs/stages/plugins.md has the table).
 */
import { clip } from '../lib/clip.js';
import { jsLiteral } from '../lib/js-literal.js';
import { optionsObject, type Translator } from './factory-options.js';

/** A header list as cors writes it: an array joined with `,` (lib/index.js), a string as it is; null when cors sends none for it (empty). */
function headerList(value: unknown): string | null | undefined {
  if (Array.isArray(value)) return value.length && value.every((v) => typeof v === 'string') ? value.join(',') : value.length ? undefined : null;
  if (typeof value === 'string') return value.length ? value : null;
  return undefined;
}

/** The options cors 2.8 reads (lib/index.js). */
const CORS_OPTIONS = new Set(['origin', 'methods', 'allowedHeaders', 'headers', 'exposedHeaders', 'credentials', 'maxAge', 'preflightContinue', 'optionsSuccessStatus']);

/** cors's options as @fastify/cors takes them (module comment): each option's branch says why; what has no exact form is refused. */
export const corsTranslator: Translator = ({ args, carried }) => {
  const folded = optionsObject(args, 'cors', new Set(['origin']), carried);
  if ('refuse' in folded) return folded;
  const given = folded.value;
  const env = folded.environment.origin;
  const unknownKey = Object.keys(given).find((k) => !CORS_OPTIONS.has(k));
  if (unknownKey) return { refuse: `its option \`${unknownKey}\` is not one of cors's (cors ignores it; @fastify/cors may not)` };
  const options: Record<string, unknown> = {};
  const sources: Record<string, string> = {};
  // origin: cors skips a falsy origin altogether (no headers, OPTIONS not answered) as @fastify/cors does `false`;
  // cors adds `Vary: Origin` for any origin but '*', @fastify/cors only for one that is not a string, so
  // another string is given as a function returning it (the header the same, and Vary).
  // An origin from the environment, read when the plugin registers as cors read it when the app made it: the same three cases.
  if (env) sources.origin = `!${env} ? false : ${env} === '*' ? '*' : (_origin, callback) => callback(null, String(${env}))`;
  else if ('origin' in given) {
    const origin = given.origin;
    if (!origin) options.origin = false;
    else if (origin === '*' || origin === true) options.origin = origin;
    else if (typeof origin === 'string') sources.origin = `(_origin, callback) => callback(null, ${jsLiteral(origin)})`;
    else if (Array.isArray(origin) && origin.length && origin.every((o) => typeof o === 'string' && o !== '*')) options.origin = origin;
    else return { refuse: `its origin \`${clip(JSON.stringify(origin))}\` is not translated (an array holding '*' allows every origin in @fastify/cors, none in cors)` };
  }
  if ('methods' in given) {
    const methods = headerList(given.methods);
    if (!methods) return { refuse: `its methods \`${clip(JSON.stringify(given.methods))}\` are not a list of methods` };
    options.methods = methods;
  }
  // cors reads `allowedHeaders`, then `headers`; with neither (or an empty string) it reflects the
  // request's. An empty array it takes as given: no Allow-Headers, no Vary, which @fastify/cors has no form for.
  const allowedGiven = given.allowedHeaders || given.headers;
  if (Array.isArray(allowedGiven) && !allowedGiven.length) return { refuse: 'its allowedHeaders are an empty list, which allows no header; @fastify/cors would send an empty one' };
  const allowed = headerList(allowedGiven);
  if (allowed === undefined && allowedGiven) return { refuse: 'its allowedHeaders are not a list of header names' };
  if (allowed) options.allowedHeaders = allowed;
  const exposed = headerList(given.exposedHeaders);
  if (exposed === undefined && given.exposedHeaders) return { refuse: 'its exposedHeaders are not a list of header names' };
  if (exposed) options.exposedHeaders = exposed;
  // cors sends the header for `credentials: true` only; @fastify/cors for any truthy value.
  if (given.credentials === true) options.credentials = true;
  if (typeof given.maxAge === 'number' || (typeof given.maxAge === 'string' && given.maxAge.length)) options.maxAge = given.maxAge;
  else if (given.maxAge) return { refuse: `its maxAge \`${clip(JSON.stringify(given.maxAge))}\` is not a number of seconds` };
  // preflightContinue hands the preflight to the app's routes: Express's automatic OPTIONS answer there, @fastify/cors's own route here.
  if (given.preflightContinue) return { refuse: "its preflightContinue hands preflights on to the app's routes, where @fastify/cors answers them itself" };
  if ('optionsSuccessStatus' in given) {
    if (typeof given.optionsSuccessStatus !== 'number') return { refuse: 'its optionsSuccessStatus is not a status code' };
    if (given.optionsSuccessStatus !== 204) options.optionsSuccessStatus = given.optionsSuccessStatus;
  }
  // The app's origin function (left out of the folded options) is asked per request by a delegator
  // (root-plugin-registration.ts), which gives the origin option its answer, as cors did; @fastify/cors's
  // own function form adds Vary: Origin before asking, also to the requests the function refuses.
  return { options, sources, ...(carried.origin ? { delegate: carried.origin } : {}) };
};
