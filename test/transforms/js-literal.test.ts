/** transforms/lib/js-literal.ts: a value written as source reads back as the same value, whatever its strings hold. */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { jsLiteral } from '../../transforms/lib/js-literal.js';

const read = (source: string): unknown => new Function(`return ${source}`)();

describe('jsLiteral', () => {
  it('writes single-quoted strings, double quotes for one holding single quotes only (a CSP keyword)', () => {
    expect(jsLiteral({ directives: { 'default-src': ["'self'"] }, limit: '1mb' })).toBe(`{ directives: { 'default-src': ["'self'"] }, limit: '1mb' }`);
    expect(jsLiteral('line\nbreak')).toBe("'line\\nbreak'");
    expect(jsLiteral(`'a' "b"`)).toBe(`'\\'a\\' "b"'`);
    expect(read(jsLiteral(JSON.parse('{"__proto__":{"x":1}}')))).toEqual(JSON.parse('{"__proto__":{"x":1}}'));
  });

  it('reads back as the value it was given (quotes, backslashes, control characters, line separators)', () => {
    fc.assert(fc.property(fc.jsonValue(), (value) => {
        expect(read(jsLiteral(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }), { numRuns: 300 });
    fc.assert(fc.property(fc.string({ unit: fc.constantFrom('\\', '"', "'", 'a', '\n', '\u2028', '\u2029', '\t') }), (s) => {
        expect(read(jsLiteral(s))).toBe(s);
      }), { numRuns: 300 });
  });
});
