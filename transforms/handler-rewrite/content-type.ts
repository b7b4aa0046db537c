/**
 * The `Content-Type` Express sets for a type it is given (`res.type('html')`, `res.set('Content-Type',
 * 'text/csv')`): the full type with the charset Express adds. Only extensions whose type Express 4 and
 * 5 agree on are expanded; others return null, and the forms that need them refuse rather than guess.
 */
/**
 * Charset Express appends to a `Content-Type` it sets (Express 4 `res.set` → mime 1.x
 * `charsets.lookup`: text types and JavaScript/JSON; Express 5 mime-types gives the same for these).
 */
function withCharset(type: string): string {
  if (/;\s*charset\s*=/i.test(type)) return type;
  return /^text\/|^application\/(javascript|json)/i.test(type.split(';')[0].trim()) ? `${type}; charset=utf-8` : type;
}

/**
 * `res.type(ext)` resolves a file extension through mime; only the extensions whose type Express 4
 * and 5 agree on are expanded here (others refuse rather than guess).
 */
const EXTENSION_TYPES: Record<string, string> = {
  html: 'text/html',
  htm: 'text/html',
  json: 'application/json',
  txt: 'text/plain',
  text: 'text/plain',
  xml: 'application/xml',
  css: 'text/css',
  csv: 'text/csv',
};

/**
 * The full content type Express sets for `res.type(t)` / `res.set('Content-Type', t)`, or null when it
 * depends on mime tables we do not copy, or Express 4 and 5 set it differently: Express 4 (mime 1.x)
 * tests the type as written, case-sensitively and from its first character, with a prefix regex
 * (`TEXT/HTML`, ` text/plain` and `application/json5` get no charset, `application/jsonx` one);
 * Express 5 (mime-types) reads the type trimmed and lower-cased from mime-db.
 */
export function expressContentType(t: string): string | null {
  const bare = t.replace(/^\./, '');
  if (t.includes('/')) {
    const media = t.split(';')[0];
    if (media !== media.trim().toLowerCase() || /^application\/(javascript|json)(?!$)/.test(media)) return null;
    return withCharset(t);
  }
  const type = EXTENSION_TYPES[bare.toLowerCase()];
  return type ? withCharset(type) : null;
}

