/** Plain values written as JavaScript source, for the code the transforms generate. */

/**
 * A folded JSON value as JavaScript source in the template's style: single quotes, identifier keys
 * bare (`{ limit: '1mb' }`); `sources` adds members written as source (`verify: keepRaw`) to an object.
 */
export function jsLiteral(value: unknown, sources: Record<string, string> = {}): string {
  if (value === undefined) return 'undefined';
  // A string holding single quotes and no double ones (a CSP keyword: "'self'") reads better in double quotes.
  if (typeof value === 'string') return /'/.test(value) && !/["\\]/.test(value) ? `"${value}"` : `'${value.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  if (Array.isArray(value)) return `[${value.map((v) => jsLiteral(v)).join(', ')}]`;
  if (value && typeof value === 'object') {
    const key = (k: string) => (/^[A-Za-z_$][\w$]*$/.test(k) ? k : jsLiteral(k));
    const entries = [...Object.entries(value).map(([k, v]) => `${key(k)}: ${jsLiteral(v)}`), ...Object.entries(sources).map(([k, v]) => `${key(k)}: ${v}`)];
    return entries.length ? `{ ${entries.join(', ')} }` : '{}';
  }
  return JSON.stringify(value);
}
