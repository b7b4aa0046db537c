/**
 * Redaction of secrets in a recording, with stable placeholders (verifier-design.md §7.4): the
 * same secret value gets the same placeholder everywhere in one recording, numbered by first
 * appearance per kind, so a replay can still tell identities apart (user 1's token ≠ user 2's)
 * and re-create real values per lane from a credentials module keyed by placeholder.
 *
 * Placeholder grammar: `<redacted:KIND:N>` or `<redacted:KIND:NAME:N>` — KIND is lower-case
 * `[a-z0-9._-]` (`authorization`, `x-api-key`, `password`, `cookie`), NAME a cookie name, N ≥ 1.
 *
 * Redacted by default, in requests and responses:
 * - `Authorization`, `Proxy-Authorization`: the credentials, the scheme is kept (`Bearer <redacted:authorization:1>`);
 * - `Cookie`: each cookie's value, names kept (`sid=<redacted:cookie:sid:1>`); `Set-Cookie`: the value
 *   only, attributes kept (they are compared); the same values in `request.cookies`/`response.cookies`;
 * - API-key-like headers (`x-api-key`, `api-key`, `x-auth-token`, `*-token`, `*-secret`, `*-api-key`, `*-password`): the whole value;
 * - password-like fields (`password`, `passwd`, `secret`, `token`, `apiKey`, `client_secret`,
 *   `access_token`, `refresh_token`…, case-insensitive, also as suffixes like `newPassword`) at any
 *   depth of JSON bodies, in urlencoded bodies and `params`, and in query strings;
 * - then any JSON string in a body that equals a secret found elsewhere (a token echoed under
 *   another name), when it is at least 8 characters long.
 * Each entry lists what was replaced in `_redactions`: request side `header:authorization`,
 * `cookie:sid`, `body:/user/password`, `query:api_key`; response side `set-cookie:sid`,
 * `response.header:x-auth-token`, `response.body:/access_token`.
 */
import type { Har, HarCookie, HarEntry, HarNameValue } from './model.js';

/** Every placeholder in a text (global: use with `replace`, `matchAll`). Groups: kind, name?, n. */
export const REDACTED = /<redacted:([a-z0-9][a-z0-9._-]*)(?::([^\s:<>;,="]+))?:(\d+)>/g;

/** A parsed placeholder. */
export interface Placeholder {
  /** The placeholder itself, e.g. `<redacted:cookie:sid:1>`. */
  text: string;
  kind: string;
  /** The cookie name for `cookie` placeholders. */
  name?: string;
  /** 1-based, by first appearance per kind (and name). */
  n: number;
}

/** Parses a string that is exactly one placeholder; `null` for anything else. */
export function parsePlaceholder(text: string): Placeholder | null {
  const m = WHOLE.exec(text);
  if (!m) return null;
  return m[2] === undefined ? { text, kind: m[1], n: Number(m[3]) } : { text, kind: m[1], name: m[2], n: Number(m[3]) };
}

/** Builds a placeholder; `kind` is lower-cased and reduced to the grammar's characters. */
export function placeholder(kind: string, n: number, name?: string): string {
  return `<redacted:${kindOf(kind)}${name === undefined ? '' : `:${name}`}:${n}>`;
}

/** What to redact. Defaults: enabled, no extra headers or fields. */
export interface RedactOptions {
  /** `false` (`--no-redact`) leaves the recording untouched. */
  enabled?: boolean;
  /** More header names whose whole value is secret (`--redact-header`), case-insensitive. */
  headers?: string[];
  /** More body/query field names that are secret (`--redact-field`), case-insensitive, `-`/`_` ignored. */
  fields?: string[];
}

/** The redacted copy and how many replacements were listed in `_redactions` (all entries). */
export interface RedactResult {
  har: Har;
  redactions: number;
}

/**
 * Redacts a recording; `har` is not modified. Idempotent: placeholders are never redacted again,
 * and new placeholders are numbered after those already in the file.
 */
export function redactHar(har: Har, options: RedactOptions = {}): RedactResult {
  if (options.enabled === false) return { har, redactions: 0 };
  const out = structuredClone(har);
  const r = new Redactor(options, JSON.stringify(har));
  const before = out.log.entries.map((e) => e._redactions?.length ?? 0);
  for (const entry of out.log.entries) r.entry(entry);
  // Second pass: secrets learnt from later entries (a token issued, then sent) also hide in earlier bodies.
  for (const entry of out.log.entries) r.bodies(entry);
  const redactions = out.log.entries.reduce((sum, e, i) => sum + (e._redactions?.length ?? 0) - before[i], 0);
  return { har: out, redactions };
}

// ---------------------------------------------------------------------------------------------

const WHOLE = new RegExp(`^${REDACTED.source}$`);
const AUTH_HEADERS = new Set(['authorization', 'proxy-authorization']);
const KEY_HEADER = /^(x-)?(api-?key|auth-token|access-token)$|-(token|secret|api-?key|password|passwd)$/;
const SECRET_FIELDS = new Set(['password', 'passwd', 'pwd', 'secret', 'token', 'apikey', 'clientsecret', 'accesstoken', 'refreshtoken', 'idtoken']);
const SECRET_SUFFIX = /(password|passwd|secret|token|apikey)$/;
/** Known secrets echoed elsewhere are replaced only from this length on (short values collide by chance). */
const MIN_ECHO = 8;

type Side = 'request' | 'response';

class Redactor {
  private readonly byValue = new Map<string, string>();
  private readonly counters = new Map<string, number>();
  private readonly extraHeaders: Set<string>;
  private readonly extraFields: Set<string>;
  private list: string[] = [];

  constructor(options: RedactOptions, existing: string) {
    this.extraHeaders = new Set((options.headers ?? []).map((h) => h.toLowerCase()));
    this.extraFields = new Set((options.fields ?? []).map(fieldKey));
    for (const m of existing.matchAll(REDACTED)) {
      const key = m[2] === undefined ? m[1] : `${m[1]}:${m[2]}`;
      this.counters.set(key, Math.max(this.counters.get(key) ?? 0, Number(m[3])));
    }
  }

  /** Redacts headers, cookies, query and bodies of one entry. */
  entry(entry: HarEntry): void {
    this.list = [...(entry._redactions ?? [])];
    const { request, response } = entry;
    request.headers = request.headers.map((h) => this.header(h, 'request'));
    request.cookies = request.cookies.map((c) => this.cookie(c, 'cookie'));
    response.headers = response.headers.map((h) => this.header(h, 'response'));
    response.cookies = response.cookies.map((c) => this.cookie(c, 'set-cookie'));
    this.query(entry);
    this.redactBodies(entry);
  }

  /** Redacts the request and response bodies of one entry again, with every secret known by now. */
  bodies(entry: HarEntry): void {
    this.list = [...(entry._redactions ?? [])];
    this.redactBodies(entry);
  }

  private redactBodies(entry: HarEntry): void {
    const pd = entry.request.postData;
    if (pd && pd._encoding !== 'base64') {
      if (pd.text !== undefined) pd.text = this.body(pd.text, pd.mimeType, 'body');
      if (pd.params) pd.params = pd.params.map((p) => this.param(p, `body:/${escapePointer(p.name)}`));
    }
    const content = entry.response.content;
    if (content.text !== undefined && content.encoding !== 'base64') content.text = this.body(content.text, content.mimeType, 'response.body');
    if (this.list.length) entry._redactions = this.list;
  }

  private header(h: HarNameValue, side: Side): HarNameValue {
    const value = this.headerValue(h.name.toLowerCase(), h.value, side);
    return value === h.value ? h : { ...h, value };
  }

  private headerValue(name: string, value: string, side: Side): string {
    if (name === 'cookie') {
      return value.replace(/(^|;\s*)([^=;]+)=([^;]*)/g, (_, lead: string, cookie: string, v: string) => `${lead}${cookie}=${this.cookieValue(v, cookie.trim(), `cookie:${cookie.trim()}`)}`);
    }
    if (name === 'set-cookie') {
      return value.replace(/^(\s*)([^=;]+)=([^;]*)/, (_, lead: string, cookie: string, v: string) => `${lead}${cookie}=${this.cookieValue(v, cookie.trim(), `set-cookie:${cookie.trim()}`)}`);
    }
    let next = value;
    if (AUTH_HEADERS.has(name)) {
      // Keep the scheme: `Bearer <redacted:authorization:1>`.
      const m = /^(\S+\s+)(\S.*)$/s.exec(value);
      next = m ? m[1] + this.secret(m[2], name) : this.secret(value, name);
    } else if (this.extraHeaders.has(name) || KEY_HEADER.test(name)) {
      next = this.secret(value, name);
    }
    if (next !== value) this.note(side === 'request' ? `header:${name}` : `response.header:${name}`);
    return next;
  }

  private cookie(c: HarCookie, where: 'cookie' | 'set-cookie'): HarCookie {
    const value = this.cookieValue(c.value, c.name, `${where}:${c.name}`);
    return value === c.value ? c : { ...c, value };
  }

  private cookieValue(value: string, name: string, where: string): string {
    const next = this.secret(value, 'cookie', name);
    if (next !== value) this.note(where);
    return next;
  }

  private query(entry: HarEntry): void {
    const { request } = entry;
    const q = request.url.indexOf('?');
    if (q < 0) return;
    const hash = request.url.indexOf('#', q);
    const end = hash < 0 ? request.url.length : hash;
    const query = this.urlencoded(request.url.slice(q + 1, end), (field) => `query:${field}`);
    request.url = request.url.slice(0, q + 1) + query + request.url.slice(end);
    request.queryString = request.queryString.map((p) => this.param(p, `query:${p.name}`));
  }

  private body(text: string, mimeType: string, where: 'body' | 'response.body'): string {
    if (/^application\/x-www-form-urlencoded/i.test(mimeType ?? '')) return this.urlencoded(text, (field) => `${where}:/${escapePointer(field)}`);
    const json = /json/i.test(mimeType ?? '') || /^\s*[[{]/.test(text) ? parseJson(text) : undefined;
    if (json === undefined) return text;
    let changed = false;
    const next = this.json(json.value, '', undefined, (pointer) => {
      changed = true;
      this.note(`${where}:${pointer}`);
    });
    if (!changed) return text;
    const indent = /^\s*[[{]\r?\n([ \t]+)/.exec(text)?.[1] ?? 0;
    return JSON.stringify(next, null, indent) + (/\n$/.test(text) ? '\n' : '');
  }

  /** A name/value pair (form or query parameter) with its value redacted when the name is secret. */
  private param<T extends HarNameValue>(p: T, where: string): T {
    const field = lastSegment(p.name);
    if (!this.isSecretField(field)) return p;
    const value = this.secret(p.value, field);
    if (value === p.value) return p;
    this.note(where);
    return { ...p, value };
  }

  /**
   * A copy of a JSON value with secret leaves replaced, calling `hit(pointer)` for each: strings
   * and numbers under a secret-named key (`secretKey`, the nearest such key, names the kind), and
   * strings equal to a secret already known.
   */
  private json(value: unknown, pointer: string, secretKey: string | undefined, hit: (pointer: string) => void): unknown {
    if (Array.isArray(value)) return value.map((v, i) => this.json(v, `${pointer}/${i}`, secretKey, hit));
    if (value && typeof value === 'object') {
      return Object.fromEntries(
        Object.entries(value).map(([k, v]) => [k, this.json(v, `${pointer}/${escapePointer(k)}`, this.isSecretField(k) ? k : secretKey, hit)]),
      );
    }
    if (typeof value !== 'string' && typeof value !== 'number') return value;
    const leaf = String(value);
    const next = secretKey !== undefined ? this.secret(leaf, secretKey) : typeof value === 'string' && leaf.length >= MIN_ECHO ? (this.byValue.get(leaf) ?? leaf) : leaf;
    if (next === leaf) return value;
    hit(pointer);
    return next;
  }

  /** Rewrites `a=1&password=x` keeping order and spelling; the placeholder is written unencoded. */
  private urlencoded(text: string, where: (field: string) => string): string {
    return text
      .split('&')
      .map((pair) => {
        const i = pair.indexOf('=');
        if (i < 0) return pair;
        const field = decodeForm(pair.slice(0, i));
        const last = lastSegment(field);
        const value = decodeForm(pair.slice(i + 1));
        if (!this.isSecretField(last) || !value || parsePlaceholder(value)) return pair;
        this.note(where(field));
        return `${pair.slice(0, i)}=${this.secret(value, last)}`;
      })
      .join('&');
  }

  private isSecretField(name: string): boolean {
    const key = fieldKey(name);
    return SECRET_FIELDS.has(key) || SECRET_SUFFIX.test(key) || this.extraFields.has(key);
  }

  /** The placeholder for a secret value (the same for the same value); placeholders and empty values pass through. */
  private secret(value: string, kind: string, name?: string): string {
    if (!value || parsePlaceholder(value)) return value;
    const known = this.byValue.get(value);
    if (known) return known;
    const key = name === undefined ? kindOf(kind) : `${kindOf(kind)}:${name}`;
    const n = (this.counters.get(key) ?? 0) + 1;
    this.counters.set(key, n);
    const p = placeholder(kind, n, name);
    this.byValue.set(value, p);
    return p;
  }

  private note(where: string): void {
    if (!this.list.includes(where)) this.list.push(where);
  }
}

function kindOf(kind: string): string {
  return kind.toLowerCase().replace(/[^a-z0-9._-]/g, '_').replace(/^[^a-z0-9]+/, '') || 'secret';
}

/** The innermost name of a qs-style key: `user[password]` → `password`. */
function lastSegment(name: string): string {
  return /\[([^\]]*)\]$/.exec(name)?.[1] ?? name;
}

function fieldKey(name: string): string {
  return name.toLowerCase().replace(/[-_\s]/g, '');
}

function escapePointer(key: string): string {
  return key.replace(/~/g, '~0').replace(/\//g, '~1');
}

function decodeForm(s: string): string {
  try {
    return decodeURIComponent(s.replace(/\+/g, ' '));
  } catch {
    return s;
  }
}

function parseJson(text: string): { value: unknown } | undefined {
  try {
    return { value: JSON.parse(text) };
  } catch {
    return undefined;
  }
}
