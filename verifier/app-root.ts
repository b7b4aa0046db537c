/**
 * An answer that names the folder its app runs from (an error message with a file path, a stack
 * trace, a debug page) differs between the baseline's checkout and the working tree for no reason a
 * client could notice. Each side's own folder is written `<app root>` before the answers are
 * compared, and the ETag of such a body (a hash of the bytes as sent, folder included) is not
 * compared either: only whether it is one of Express's automatic tags (so a candidate that sends
 * none is still the `etag` framework delta, verifier/deltas.ts) or the app's own.
 */
import { realpathSync } from 'node:fs';
import { isExpressEtag } from './etags.js';
import type { CanonicalResponse } from './model.js';

/** What the app's folder is replaced by. */
export const APP_ROOT = '<app root>';
/** What an app's own ETag computed over a body that named the app's folder is replaced by. */
export const APP_ROOT_ETAG = '<etag of a body naming the app root>';
/** What Express's automatic ETag (verifier/etags.ts) of a body that named the app's folder is replaced by. */
export const APP_ROOT_EXPRESS_ETAG = '<Express etag of a body naming the app root>';

/**
 * `response` with every occurrence of `dir` (as given and as its real path) in a text body or in
 * the string values of a JSON body replaced by {@link APP_ROOT}; when one was, its `etag` header
 * becomes {@link APP_ROOT_EXPRESS_ETAG} (one of Express's automatic forms) or {@link APP_ROOT_ETAG}
 * (any other). Returns `response` itself when the body does not name the folder.
 */
export function withoutAppRoot(response: CanonicalResponse, dir: string): CanonicalResponse {
  const roots = [...new Set([dir, realOrSame(dir)])].filter((r) => r.length > 1).sort((a, b) => b.length - a.length);
  let replaced = false;
  const strip = (s: string) => roots.reduce((t, root) => (t.includes(root) ? ((replaced = true), t.split(root).join(APP_ROOT)) : t), s);
  const walk = (v: unknown): unknown => {
    if (typeof v === 'string') return strip(v);
    if (Array.isArray(v)) return v.map(walk);
    if (v && typeof v === 'object') return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, walk(x)]));
    return v;
  };
  const body = response.bodyKind === 'text' || response.bodyKind === 'json' ? walk(response.body) : response.body;
  if (!replaced) return response;
  const etag = response.headers.etag;
  const headers = etag === undefined ? response.headers : { ...response.headers, etag: isExpressEtag(etag) ? APP_ROOT_EXPRESS_ETAG : APP_ROOT_ETAG };
  return { ...response, body, headers };
}

function realOrSame(dir: string): string {
  try {
    return realpathSync(dir);
  } catch {
    return dir;
  }
}
