/** Plain values written as JavaScript source, for the code the transforms generate. */

/**
 * A folded JSON value as JavaScript source in the template's style: single quotes, identifier keys
 * bare (`{ limit: '1mb' }`); `sources` adds members written as source (`verify: keepRaw`) to an object.
 */
export function jsLiteral(value: unknown, sources: Record<string, string> = {}): string {
  if (value === undefined) return 'undefined';
  // A string holding single quotes and no double ones (a CSP keyword: "'self'") reads better in double quotes.
  if (typeof value === 'string') {
    // JSON's escapes (control characters, line and paragraph separators) in a single-quoted string.
    const escaped = JSON.stringify(value).slice(1, -1).replace(/\u2028/g, '\\u2028').replace(/\u2029/g, '\\u2029');
    return /'/.test(value) && escaped === value ? `"${escaped}"` : `'${escaped.replace(/\\"/g, '"').replace(/'/g, "\\'")}'`;
  }
  if (Array.isArray(value)) return `[${value.map((v) => jsLiteral(v)).join(', ')}]`;
  if (value && typeof value === 'object') {
    // `__proto__:` (bare or quoted) would set the prototype; a computed key makes it an own member.
    const key = (k: string) => (k === '__proto__' ? `['__proto__']` : /^[A-Za-z_$][\w$]*$/.test(k) ? k : jsLiteral(k));
    const entries = [...Object.entries(value).map(([k, v]) => `${key(k)}: ${jsLiteral(v)}`), ...Object.entries(sources).map(([k, v]) => `${key(k)}: ${v}`)];
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}
