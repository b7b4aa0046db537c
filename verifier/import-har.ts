/**
 * Import of a browser HAR (Chrome, Firefox, Safari export) as a recording (verifier-design.md
 * §7.3, §1.10): keeps one origin's HTTP exchanges in time order, in the shape our replay expects,
 * and says plainly what it left out or what the browser left out.
 *
 * - Drops exchanges that never reached the app: status 0, blocked or failed (`response._error`),
 *   served from the browser cache (`_fromCache`), and non-HTTP URLs (`data:`, `blob:`, `chrome-extension:`).
 * - Keeps one origin: `origin` when given, else the most frequent one; the others are counted in a warning.
 * - HTTP/2 `:`-pseudo-headers are dropped; `:authority` becomes `Host` when there is no Host.
 * - Base64 response bodies become text when the MIME type is textual and the bytes are UTF-8.
 * - Browser-private `_` fields (`_initiator`, `_priority`, timings details…) are dropped, except `_resourceType`.
 * - Warns where the browser stripped cookies or credentials: a sanitized export (the creator or a
 *   comment says so), `cookies` listed without a `Cookie`/`Set-Cookie` header.
 * - Entries sorted by `startedDateTime` (stable), then redacted ({@link redactHar}).
 */
import { isTextual, isUtf8, readHar, HarError } from './har.js';
import { redactHar, type RedactOptions } from './redact.js';
import type { Har, HarEntry, HarNameValue } from './model.js';

/** Options of an import. */
export interface ImportOptions {
  /** Keep only this origin (`http://localhost:3000`; a full URL is reduced to its origin). Default: the most frequent. */
  origin?: string;
  /** Redaction applied at the end; default: on, with the built-in rules. */
  redact?: RedactOptions;
  /** `log.creator` of the result; default `{ name: 'migrate record --from-har', version: '0' }`. */
  creator?: { name: string; version: string };
}

/** The imported recording, what redaction replaced, the origin kept, and warnings for a human (one sentence each). */
export interface ImportResult {
  har: Har;
  origin: string;
  redactions: number;
  warnings: string[];
}

/**
 * Imports a browser HAR file.
 * @throws HarError when the file is not HAR 1.x ({@link readHar}), or when no HTTP exchange of
 *   the chosen origin is left.
 */
export function importHarFile(file: string, options: ImportOptions = {}): ImportResult {
  return importBrowserHar(readHar(file), options, file);
}

/** Imports a browser HAR already read; `source` names it in errors. Pure: `har` is not modified. */
export function importBrowserHar(har: Har, options: ImportOptions = {}, source = 'the HAR'): ImportResult {
  const warnings: string[] = [];
  const dropped = new Map<string, number>();
  const drop = (why: string) => dropped.set(why, (dropped.get(why) ?? 0) + 1);

  const live = har.log.entries.filter((e) => {
    const why = droppedBecause(e);
    if (why) drop(why);
    return !why;
  });
  const counts = new Map<string, number>();
  for (const e of live) counts.set(originOf(e.request.url), (counts.get(originOf(e.request.url)) ?? 0) + 1);
  const origin = options.origin ? originOf(options.origin) : [...counts].sort((a, b) => b[1] - a[1])[0]?.[0];
  if (!origin || !counts.has(origin)) {
    const present = [...counts.keys()].join(', ') || 'none';
    throw new HarError(source, `${source} has no HTTP exchanges${options.origin ? ` for ${origin}` : ''} (origins present: ${present})`);
  }
  const others = [...counts].filter(([o]) => o !== origin);
  if (others.length) {
    const n = others.reduce((s, [, c]) => s + c, 0);
    warnings.push(`Kept ${counts.get(origin)} exchanges with ${origin}; left out ${n} with ${others.length} other origin${others.length === 1 ? '' : 's'} (${others.map(([o, c]) => `${o} ${c}`).join(', ')}).`);
  }
  for (const [why, n] of dropped) warnings.push(`Left out ${n} exchange${n === 1 ? '' : 's'} ${why}.`);

  const entries = live
    .filter((e) => originOf(e.request.url) === origin)
    .map((e, i) => ({ e, i, t: Date.parse(e.startedDateTime) }))
    .sort((a, b) => (Number.isNaN(a.t) || Number.isNaN(b.t) ? 0 : a.t - b.t) || a.i - b.i)
    .map(({ e }) => cleanEntry(e));
  warnings.push(...strippedCredentials(har, entries));

  const imported: Har = {
    log: {
      version: '1.2',
      creator: options.creator ?? { name: 'migrate record --from-har', version: '0' },
      entries,
      comment: `Imported from a HAR by ${describeCreator(har)}: ${origin}, ${entries.length} exchanges.`,
    },
  };
  const { har: redacted, redactions } = redactHar(imported, options.redact);
  return { har: redacted, origin, redactions, warnings };
}

// ---------------------------------------------------------------------------------------------

/** Why an entry never reached the app (a phrase for the warning), or undefined to keep it. */
function droppedBecause(e: HarEntry): string | undefined {
  const extra = e as HarEntry & { _fromCache?: unknown; response: { _error?: unknown; _fromCache?: unknown } };
  if (!/^https?:\/\//i.test(e.request.url)) return 'with non-HTTP URLs (data:, blob:, extensions…)';
  if (extra._fromCache || extra.response._fromCache) return 'served from the browser cache';
  if (e.response.status === 0 || extra.response._error) return 'that were blocked, failed or cancelled (status 0)';
  return undefined;
}

function originOf(url: string): string {
  try {
    return new URL(url).origin;
  } catch {
    return url;
  }
}

/** What we keep of a browser entry: HAR fields, our own extensions and `_resourceType`. */
function cleanEntry(e: HarEntry): HarEntry {
  const { request, response } = structuredClone(e);
  const authority = request.headers.find((h) => h.name.toLowerCase() === ':authority');
  request.headers = request.headers.filter((h) => !h.name.startsWith(':'));
  if (authority && !request.headers.some((h) => h.name.toLowerCase() === 'host')) request.headers.unshift({ name: 'Host', value: authority.value });
  response.headers = response.headers.filter((h) => !h.name.startsWith(':'));
  const content = response.content;
  if (content.encoding === 'base64' && content.text !== undefined && isTextual(content.mimeType)) {
    const bytes = Buffer.from(content.text, 'base64');
    if (isUtf8(bytes)) {
      content.text = bytes.toString('utf8');
      delete content.encoding;
    }
  }
  const out: HarEntry = {
    startedDateTime: e.startedDateTime,
    time: e.time,
    request: withoutPrivate(request),
    response: withoutPrivate(response),
    cache: {},
    timings: { send: e.timings.send ?? 0, wait: e.timings.wait ?? 0, receive: e.timings.receive ?? 0 },
  };
  for (const key of ['comment', '_session', '_routeTemplate', '_resourceType'] as const) {
    const value = (e as unknown as Record<string, unknown>)[key];
    if (value !== undefined) (out as unknown as Record<string, unknown>)[key] = value;
  }
  return out;
}

function withoutPrivate<T extends object>(o: T): T {
  return Object.fromEntries(Object.entries(o).filter(([k]) => !k.startsWith('_') || k === '_encoding')) as T;
}

/** Warnings where the browser left out cookies or credentials. */
function strippedCredentials(source: Har, entries: HarEntry[]): string[] {
  const warnings: string[] = [];
  const has = (headers: HarNameValue[], name: string) => headers.some((h) => h.name.toLowerCase() === name);
  const requests = entries.filter((e) => e.request.cookies.length > 0 && !has(e.request.headers, 'cookie')).length;
  const responses = entries.filter((e) => e.response.cookies.length > 0 && !has(e.response.headers, 'set-cookie')).length;
  const said = [source.log.creator?.name, source.log.creator?.comment, source.log.comment].some((t) => typeof t === 'string' && /saniti[sz]/i.test(t));
  if (said) warnings.push('The HAR says it was sanitized: browsers then leave out Cookie, Set-Cookie and Authorization, so give credentials for the replay.');
  if (requests) warnings.push(`${requests} request${requests === 1 ? ' lists' : 's list'} cookies but carr${requests === 1 ? 'ies' : 'y'} no Cookie header: the browser stripped it (a sanitized export); give credentials for the replay.`);
  if (responses) warnings.push(`${responses} response${responses === 1 ? ' lists' : 's list'} cookies but carr${responses === 1 ? 'ies' : 'y'} no Set-Cookie header: the browser stripped it; cookie attributes cannot be compared for ${responses === 1 ? 'it' : 'them'}.`);
  return warnings;
}

function describeCreator(har: Har): string {
  const c = har.log.creator;
  return [c?.name, c?.version].filter(Boolean).join(' ') || 'an unknown tool';
}
