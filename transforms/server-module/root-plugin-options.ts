/**
 * The options of a middleware that moves to its official plugin at the root of the Fastify server
 * (root-plugins.ts), as that plugin takes them: the same headers on the same requests. One
 * translator per package the catalogue gives a `rootPlugin` (cors-options.ts, helmet-options.ts);
 * each refuses, with the reason, what it cannot translate exactly, and the catalogue's `defaults`
 * fill the options the app left unset.
 */
import type { FoldedValue } from '../../analyzer/model.js';
import type { MiddlewareEntry } from '../../rules/catalogue/middleware.js';
import { jsLiteral } from '../lib/js-literal.js';
import { corsTranslator } from './cors-options.js';
import type { Translator } from './factory-options.js';
import { helmetTranslator } from './helmet-options.js';

/**
 * The plugin's options as source (`{ methods: 'GET', strictPreflight: false }`) and as values
 * (without the members only source gives), with the response headers the middleware sent that the
 * plugin has no option for (helmet 4's `Expect-CT`), set by a hook after the plugin's, and the
 * app's origin function the plugin asks per request (`delegate`, the source calling it); or why the
 * middleware's options cannot be given.
 */
export type PluginOptions = { source: string; value: Record<string, unknown>; headers?: Record<string, string>; delegate?: string } | { refuse: string };

/**
 * The options of `entry`'s plugin for a middleware made with `args` (module comment), the app's
 * functions among them reached by the sources in `carried` (by path: `{ origin: 'corsOrigin' }`).
 * @throws Error when the catalogue names a root plugin no translator here knows (a catalogue edit without its translator)
 */
export function rootPluginOptions(entry: MiddlewareEntry, args: FoldedValue[], version: string | null, carried: Record<string, string> = {}): PluginOptions {
  const translate = TRANSLATORS[entry.package];
  if (!translate) throw new Error(`no option translator for the root plugin of ${entry.package}`);
  const out = translate({ args, version, entry, carried });
  if ('refuse' in out) return out;
  const options = { ...out.options };
  for (const [key, value] of Object.entries(entry.rootPlugin!.defaults)) if (!(key in options) && !(key in (out.sources ?? {}))) options[key] = value;
  return { source: jsLiteral(options, out.sources), value: options, ...(out.headers ? { headers: out.headers } : {}), ...(out.delegate ? { delegate: out.delegate } : {}) };
}

/** The translators, by the catalogue's package key. */
const TRANSLATORS: Record<string, Translator> = { cors: corsTranslator, helmet: helmetTranslator };
