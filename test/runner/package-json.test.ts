/** package.json dependencies merged as text: added, raised by semver minimum, formatting kept. */
import { describe, expect, it } from 'vitest';
import { mergeDependencies } from '../../runner/package-json.js';
import { higherRange } from '../../runner/plan.js';

describe('mergeDependencies', () => {
  it('adds missing packages in alphabetical place and keeps four-space indentation and the final newline', () => {
    const text = `{\n    "name": "a",\n    "dependencies": {\n        "express": "^4.18.0",\n        "zod": "^3.0.0"\n    },\n    "devDependencies": { "fastify": "^4.0.0" }\n}\n`;
    const merged = mergeDependencies(text, { fastify: '^5.2.0', '@fastify/express': '^4.0.7' });
    expect(merged.text).toBe(`{\n    "name": "a",\n    "dependencies": {\n        "@fastify/express": "^4.0.7",\n        "express": "^4.18.0",\n        "fastify": "^5.2.0",\n        "zod": "^3.0.0"\n    },\n    "devDependencies": { "fastify": "^4.0.0" }\n}\n`);
    expect(merged.changed).toEqual({ '@fastify/express': '^4.0.7', fastify: '^5.2.0' });
  });

  it('raises a range only when ours has the higher minimum version', () => {
    const text = `{\n  "dependencies": {\n    "express": "^4.18.0",\n    "fastify": "^5.3.0",\n    "qs": "latest"\n  }\n}`;
    const merged = mergeDependencies(text, { express: '^4.21.0', fastify: '^5.2.0', qs: '^6.0.0' });
    expect(merged.changed).toEqual({ express: '^4.21.0' });
    expect(merged.text).toBe(`{\n  "dependencies": {\n    "express": "^4.21.0",\n    "fastify": "^5.3.0",\n    "qs": "latest"\n  }\n}`);
  });

  it('appends to unsorted dependencies, creates a missing block, keeps tabs and CRLF', () => {
    expect(mergeDependencies(`{\n  "dependencies": {\n    "b": "1.0.0",\n    "a": "1.0.0"\n  }\n}\n`, { c: '^1.0.0' }).text).toBe(`{\n  "dependencies": {\n    "b": "1.0.0",\n    "a": "1.0.0",\n    "c": "^1.0.0"\n  }\n}\n`);
    expect(mergeDependencies(`{\r\n\t"name": "a"\r\n}\r\n`, { fastify: '^5.2.0' }).text).toBe(`{\r\n\t"name": "a",\r\n\t"dependencies": {\r\n\t\t"fastify": "^5.2.0"\r\n\t}\r\n}\r\n`);
  });

  it('keeps a one-line package.json on one line, in its own spacing', () => {
    const wanted = { fastify: '^5.2.0', '@fastify/express': '^4.0.7' };
    expect(mergeDependencies(`{ "name": "a", "main": "server.js", "dependencies": { "express": "^4.21.2" } }\n`, wanted).text).toBe(
      `{ "name": "a", "main": "server.js", "dependencies": { "@fastify/express": "^4.0.7", "express": "^4.21.2", "fastify": "^5.2.0" } }\n`,
    );
    expect(mergeDependencies(`{"name":"a","dependencies":{"express":"^4.21.2"},"files":["a","b"]}`, wanted).text).toBe(
      `{"name":"a","dependencies":{"@fastify/express":"^4.0.7","express":"^4.21.2","fastify":"^5.2.0"},"files":["a","b"]}`,
    );
    expect(mergeDependencies(`{ "name": "a" }\n`, { fastify: '^5.2.0' }).text).toBe(`{ "name": "a", "dependencies": { "fastify": "^5.2.0" } }\n`);
  });

  it('lays a one-line file out over several lines only when its own spacing cannot be reproduced', () => {
    // Irregular spacing (one space after the first colon, none after the second): jsonc-parser's layout.
    const merged = mergeDependencies(`{"name": "a","dependencies":{"express":"^4.21.2"}}`, { fastify: '^5.2.0' }).text;
    expect(merged).toBe(`{\n  "name": "a",\n  "dependencies": {\n    "express": "^4.21.2",\n    "fastify": "^5.2.0"\n  }\n}`);
  });

  it('returns the text itself when nothing is added or raised', () => {
    const text = `{ "dependencies": { "fastify": "^5.2.0" } }`;
    expect(mergeDependencies(text, { fastify: '^5.0.0' })).toEqual({ text, changed: {} });
  });

  it('refuses a package.json that is not an object', () => {
    expect(() => mergeDependencies('[]', { a: '1' })).toThrow('package.json is not a JSON object');
  });
});

describe('higherRange', () => {
  it('keeps the range with the higher minimum of two steps', () => {
    expect(higherRange('^5.0.0', '^5.2.0')).toBe('^5.2.0');
    expect(higherRange('^5.2.0', '^5.0.0')).toBe('^5.2.0');
    expect(higherRange(undefined, '^1.0.0')).toBe('^1.0.0');
    expect(higherRange('latest', '^1.0.0')).toBe('latest');
  });
});
