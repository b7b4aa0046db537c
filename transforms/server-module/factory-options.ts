/**
 * What the option translators of the root plugins share (root-plugin-options.ts): what they read,
 * what they give, and the one options object of a middleware factory's call as the analysis folded
 * it (analyzer/folded.ts).
 */
import type { FoldedValue } from '../../analyzer/model.js';
import type { MiddlewareEntry } from '../../rules/catalogue/middleware.js';
import { clip } from '../lib/clip.js';

/** What a translator reads: the factory's arguments as the analysis folded them, the app's version of the package (installed, else declared; null when unknown), its catalogue entry. */
export interface Given {
  args: FoldedValue[];
  version: string | null;
  entry: MiddlewareEntry;
  /** Options that are functions of the app the generated module reaches (app-functions.ts), by path: the source that calls each (`corsOrigin`, `require('./app').corsOrigin`). */
  carried: Record<string, string>;
}

/**
 * A translation: the plugin's options as plain values, members written as source (`sources`:
 * `origin: (_origin, callback) => …`), response headers the middleware sent that the plugin has no
 * option for (helmet 4's `Expect-CT`), and the source calling the app's function the plugin asks per
 * request for its origin (`delegate`: cors's origin function); or why the options cannot be given exactly.
 */
export type Translation = { options: Record<string, unknown>; sources?: Record<string, string>; headers?: Record<string, string>; delegate?: string } | { refuse: string };

/** A package's option translator. */
export type Translator = (given: Given) => Translation;

/** An environment variable read as it is (`process.env.CORS_ORIGIN`): analyzer/folded.ts gives the expression as the reason. */
const ENVIRONMENT = /^process\.env\.[A-Za-z_$][\w$]*$/;

/**
 * The one options object of a factory call, folded whole (`{}` for none) but for the top-level
 * options in `fromEnvironment` read from an environment variable, given as that expression
 * (`{ origin: 'process.env.CORS_ORIGIN' }`), and the `carried` functions of the app; else why not.
 */
export function optionsObject(args: FoldedValue[], name: string, fromEnvironment: ReadonlySet<string> = new Set(), carried: Record<string, string> = {}): { value: Record<string, unknown>; environment: Record<string, string> } | { refuse: string } {
  const [first, ...rest] = args;
  if (rest.length) return { refuse: `${name} takes one options object; the call passes ${args.length} arguments` };
  if (!first) return { value: {}, environment: {} };
  const unresolved = first.unresolved ?? [];
  const environment = Object.fromEntries(unresolved.filter((u) => fromEnvironment.has(u.path) && ENVIRONMENT.test(u.reason)).map((u) => [u.path, u.reason]));
  const open = unresolved.filter((u) => !(u.path in environment) && !(u.path in carried));
  if (first.resolution === 'unresolved' || open.length) return { refuse: `its options \`${clip(first.source)}\` are known only at run time (${open.map((u) => `${u.path || 'the argument'}: ${u.reason}`).join('; ')})` };
  const value = first.value;
  if (!value || typeof value !== 'object' || Array.isArray(value)) return { refuse: `its argument \`${clip(first.source)}\` is not an options object` };
  return { value: value as Record<string, unknown>, environment };
}

/** Whether `value` is a plain object. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return !!value && typeof value === 'object' && !Array.isArray(value);
}
