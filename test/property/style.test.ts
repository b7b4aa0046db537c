/** restyle (style.ts) and the seeded random source (random.ts) of the app generator. */
import { describe, expect, it } from 'vitest';
import { Rng } from './random.js';
import { restyle, type CodeStyle } from './style.js';

const canonical = ["const express = require('express');", "const msg = 'it\\'s \"quoted\"';", 'function f() {', "  return 'x';", '}', 'for (let i = 0; i < 2; i++) f();', ''].join('\n');

describe('restyle', () => {
  it('double quotes re-escape string contents; code outside strings is untouched', () => {
    const out = restyle(canonical, { quote: 'double', semicolons: true, indent: '  ', eol: '\n' }, 'a.js');
    expect(out.split('\n').slice(0, 4)).toEqual(['const express = require("express");', 'const msg = "it\'s \\"quoted\\"";', 'function f() {', '  return "x";']);
  });

  it('drops statement-ending semicolons only, keeping those inside a for head', () => {
    const out = restyle(canonical, { quote: 'single', semicolons: false, indent: '  ', eol: '\n' }, 'a.js');
    expect(out).toBe(["const express = require('express')", "const msg = 'it\\'s \"quoted\"'", 'function f() {', "  return 'x'", '}', 'for (let i = 0; i < 2; i++) f()', ''].join('\n'));
  });

  it('refuses to drop a semicolon before a line that would continue the statement', () => {
    expect(() => restyle('const a = 1;\n(a);\n', { quote: 'single', semicolons: false, indent: '  ', eol: '\n' }, 'a.js')).toThrow(/ASI hazard/);
  });

  it('re-indents by level (tabs, four spaces) and writes CRLF', () => {
    const style: CodeStyle = { quote: 'single', semicolons: true, indent: '\t', eol: '\r\n' };
    expect(restyle('if (a) {\n  if (b) {\n    c();\n  }\n}\n', style, 'a.ts')).toBe('if (a) {\r\n\tif (b) {\r\n\t\tc();\r\n\t}\r\n}\r\n');
    expect(restyle('if (a) {\n  b();\n}\n', { ...style, indent: '    ', eol: '\n' }, 'a.ts')).toBe('if (a) {\n    b();\n}\n');
  });

  it('keeps TypeScript type members in one-line object types', () => {
    const out = restyle("type Item = { id: string; [key: string]: unknown };\n", { quote: 'double', semicolons: false, indent: '  ', eol: '\n' }, 'a.ts');
    expect(out).toBe('type Item = { id: string; [key: string]: unknown }\n');
  });
});

describe('Rng', () => {
  it('is a pure function of its seed, and int/pick/sample stay in range', () => {
    const a = new Rng(7);
    const b = new Rng(7);
    const draws = Array.from({ length: 1000 }, () => a.int(2, 5));
    expect(Array.from({ length: 1000 }, () => b.int(2, 5))).toEqual(draws);
    expect(new Set(draws)).toEqual(new Set([2, 3, 4, 5]));
    const sample = new Rng(3).sample(['a', 'b', 'c', 'd', 'e'], 3);
    expect(new Set(sample).size).toBe(3);
    expect(new Rng(3).sample(['a', 'b'], 5)).toEqual(['a', 'b']);
    expect(() => new Rng(1).pick([])).toThrow(/empty/);
  });
});
