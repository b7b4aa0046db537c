/**
 * The module the `routes` stage writes next to the generated server module when a moved handler
 * needs it (`fastify-like-express.*`): what Express's own `res.send`, `res.append`, `res.vary` and
 * `res.links` do, on the reply of a route moved off Express, for the app's Express major (express
 * 4.x and 5.x lib/response.js). The rewrite calls them where the answer depends on values known only
 * at run time (`res.send(value)`: the content type and body Express picks from the value, and from
 * a type set before). Express's helper packages (content-type, vary, statuses) are loaded from where
 * Express loads them (`createRequire` at the app's `express`), so the same versions decide — Express
 * 5.3 formats types with content-type 2, 5.0–5.2 and 4 with 1.0, which order parameters differently.
 * Express's ETag (and the 304 it enables) is left out: a framework delta of every moved route.
 * Checked at run time against Express 4 and 5 in test/transforms/like-express.test.ts.
 */
import { ROUTES_HOOKS_MARK } from '../../analyzer/generated.js';
import { DEFAULT_STYLE, restyle } from '../lib/style.js';

/** What the module's text depends on. */
export interface LikeExpressFacts {
  module: 'esm' | 'commonjs';
  typescript: boolean;
  expressMajor: 4 | 5;
}

/** The functions the module exports, which the handler rewrite calls (reply-forms.ts). */
export const LIKE_EXPRESS_FUNCTIONS = ['appendLikeExpress', 'linksLikeExpress', 'sendLikeExpress', 'varyLikeExpress'] as const;

/** A function of the module. */
export type LikeExpressFunction = (typeof LIKE_EXPRESS_FUNCTIONS)[number];

/** Whether `source` (the module as it is on disk) already has every function of this version: else it is written again. */
export function hasLikeExpressFunctions(source: string): boolean {
  return LIKE_EXPRESS_FUNCTIONS.every((name) => source.includes(`function ${name}(`));
}

/** The module text (always in the default style: a generated module, written whole). */
export function likeExpressModule(facts: LikeExpressFacts): string {
  const ts = facts.typescript;
  const t = (annotation: string) => (ts ? annotation : '');
  const exported = facts.module === 'esm' ? 'export ' : '';
  const reply = t(': FastifyReply<any>');
  const e4 = facts.expressMajor === 4;
  const lines = [
    `// Express's answers on Fastify's reply for routes moved off Express: ${ROUTES_HOOKS_MARK} (express-to-fastify migrate).`,
    `// What Express ${facts.expressMajor}'s res.send, res.append, res.vary and res.links do (express/lib/response.js),`,
    "// with the packages Express itself loads, for the handlers of moved routes that answer with values known at run time.",
    ...(facts.module === 'commonjs' && !ts ? ["'use strict';", ''] : ['']),
    ...imports(facts),
    '',
    '/** Express\'s own helper packages, loaded where Express loads them (the same versions decide). */',
    `const contentType${t(': { parse(type: string): { type: string; parameters: Record<string, string> }; format(type: { type: string; parameters: Record<string, string> }): string }')} = expressRequire('content-type');`,
    `const vary${t(': { append(header: string, field: string | string[]): string }')} = expressRequire('vary');`,
    ...(e4 ? [`const statuses${t(': { message?: Record<number, string> } & Record<number, string>')} = expressRequire('statuses');`] : []),
    '',
    ...(e4 ? sendExpress4(t, reply, exported) : sendExpress5(t, reply, exported)),
    '',
    "/** Express's res.json of a value res.send hands it: JSON text (with the app's 'json spaces'), typed application/json unless a type is set. */",
    `function jsonLikeExpress(reply${reply}, value${t(': unknown')}, spaces${t('?: number')}) {`,
    '  const body = spaces ? JSON.stringify(value, null, spaces) : JSON.stringify(value);',
    "  if (!reply.getHeader('content-type')) reply.type('application/json; charset=utf-8');",
    '  return sendLikeExpress(reply, body);',
    '}',
    '',
    "/** Express's utils.setCharset: the type with charset=utf-8, formatted by content-type (it throws for a type that does not parse, as Express does). */",
    `function setCharset(type${t(': string')}) {`,
    '  if (!type) return type;',
    '  const parsed = contentType.parse(type);',
    "  parsed.parameters.charset = 'utf-8';",
    '  return contentType.format(parsed);',
    '}',
    '',
    '/**',
    " * The end of Express's res.send: no body and no content headers for 204 and 304, an empty body",
    ' * for 205, else the chunk — an empty one without a type of its own (Fastify would type an empty',
    ' * string text/plain), a typed array as the bytes Buffer.from gives (Express with its default ETag setting).',
    ' */',
    `function answer(reply${reply}, chunk${t(': unknown')}) {`,
    '  const status = reply.statusCode;',
    '  if (status === 204 || status === 304) {',
    "    reply.removeHeader('content-type');",
    "    reply.removeHeader('content-length');",
    "    reply.removeHeader('transfer-encoding');",
    '    return reply.send();',
    '  }',
    "  if (status === 205 || chunk === '') {",
    "    reply.header('content-length', '0');",
    "    if (status === 205) reply.removeHeader('transfer-encoding');",
    '    return reply.send();',
    '  }',
    '  if (chunk === undefined) return reply.send();',
    `  return reply.send(typeof chunk === 'string' || Buffer.isBuffer(chunk) ? chunk : Buffer.from(chunk${t(' as Uint8Array')}));`,
    '}',
    '',
    '/**',
    " * Express's `res.append(field, value)`: the value added after the header's (read from the reply, or",
    " * from Express's response where the app's middleware set it), written as res.set writes it: strings.",
    ' * The rewrite does not use it for Content-Type (res.set adds a charset there).',
    ' */',
    `${exported}function appendLikeExpress(reply${reply}, field${t(': string')}, value${t(': unknown')}) {`,
    '  const prev = reply.getHeader(field);',
    `  let next${t(': unknown')} = value;`,
    `  if (prev) next = Array.isArray(prev) ? (prev${t(' as unknown[]')}).concat(value) : Array.isArray(value) ? ([prev]${t(' as unknown[]')}).concat(value) : [prev, value];`,
    "  // Fastify's reply.header adds to a set-cookie it holds: the header goes first, so the value replaces it as res.set does.",
    '  reply.removeHeader(field);',
    '  return reply.header(field, Array.isArray(next) ? next.map(String) : String(next));',
    '}',
    '',
    '/**',
    " * Express's `res.vary(field)` (the vary package's `vary(res, field)`): the field added to Vary",
    e4 ? " * unless Vary already names it; Express 4 ignores an empty field." : ' * unless Vary already names it; an empty field throws, as in Express 5.',
    ' */',
    `${exported}function varyLikeExpress(reply${reply}, field${t(': string | string[]')}) {`,
    ...(e4 ? ['  if (!field || (Array.isArray(field) && !field.length)) return reply;'] : []),
    "  const current = reply.getHeader('vary') || '';",
    "  const header = vary.append(Array.isArray(current) ? current.join(', ') : String(current), field);",
    "  if (header) reply.header('vary', header);",
    '  return reply;',
    '}',
    '',
    '/**',
    " * Express's `res.links(links)`: `<url>; rel=\"name\"` for each",
    e4 ? ' * relation, after the Link header set before.' : ' * relation (each url of an array), after the Link header set before.',
    ' */',
    `${exported}function linksLikeExpress(reply${reply}, links${t(e4 ? ': Record<string, string>' : ': Record<string, string | string[]>')}) {`,
    "  let link = String(reply.getHeader('link') || '');",
    "  if (link) link += ', ';",
    e4
      ? "  const added = Object.keys(links).map((rel) => '<' + links[rel] + '>; rel=\"' + rel + '\"').join(', ');"
      : "  const added = Object.keys(links).map((rel) => (Array.isArray(links[rel]) ? (links[rel]" + t(' as string[]') + ").map((url) => `<${url}>; rel=\"${rel}\"`).join(', ') : `<${links[rel]}>; rel=\"${rel}\"`)).join(', ');",
    "  return reply.header('link', link + added);",
    '}',
    ...(facts.module === 'commonjs' && !ts ? ['', `module.exports = { ${LIKE_EXPRESS_FUNCTIONS.join(', ')} };`] : []),
  ];
  return restyle(lines, DEFAULT_STYLE);
}

/** The imports and `expressRequire`, for the module system. */
function imports(facts: LikeExpressFacts): string[] {
  const ts = facts.typescript;
  const fastifyType = ts ? ["import type { FastifyReply } from 'fastify';"] : [];
  if (facts.module === 'esm') {
    return [
      "import { createRequire } from 'node:module';",
      ...fastifyType,
      '',
      "/** `require` from the app's Express package: its own dependencies resolve as Express resolves them. */",
      "const expressRequire = createRequire(createRequire(import.meta.url).resolve('express'));",
    ];
  }
  return [
    ts ? "import { createRequire } from 'node:module';" : "const { createRequire } = require('node:module');",
    ...fastifyType,
    '',
    "/** `require` from the app's Express package: its own dependencies resolve as Express resolves them. */",
    "const expressRequire = createRequire(require.resolve('express'));",
  ];
}

/** Express 4.x lib/response.js `send` with one argument. */
function sendExpress4(t: (a: string) => string, reply: string, exported: string): string[] {
  return [
    '/**',
    " * Express 4's `res.send(body)` (one argument): a number is a status with its text (text/plain),",
    " * a string HTML, null an empty body, a Buffer binary, anything else JSON (res.json, with the app's",
    " * 'json spaces': `spaces`); a type set before stays, with charset=utf-8 for a string body.",
    ' */',
    `${exported}function sendLikeExpress(reply${reply}, body${t(': unknown')}, spaces${t('?: number')})${t(': FastifyReply<any>')} {`,
    '  let chunk = body;',
    "  if (typeof chunk === 'number') {",
    "    if (!reply.getHeader('content-type')) reply.type('text/plain; charset=utf-8');",
    '    setStatus(reply, chunk);',
    '    chunk = statuses.message ? statuses.message[chunk] : statuses[chunk];',
    '  }',
    '  switch (typeof chunk) {',
    "    case 'string':",
    "      if (!reply.getHeader('content-type')) reply.type('text/html; charset=utf-8');",
    '      break;',
    "    case 'boolean':",
    "    case 'number':",
    "    case 'object':",
    "      if (chunk === null) chunk = '';",
    '      else if (Buffer.isBuffer(chunk)) {',
    "        if (!reply.getHeader('content-type')) reply.type('application/octet-stream');",
    '      } else return jsonLikeExpress(reply, chunk, spaces);',
    '      break;',
    '  }',
    "  if (typeof chunk === 'string') {",
    "    const type = reply.getHeader('content-type');",
    "    if (typeof type === 'string') reply.type(setCharset(type));",
    '  }',
    '  return answer(reply, chunk);',
    '}',
    '',
    '/**',
    " * `res.send(status)`'s status: Node takes 100–999 (after `| 0`) and throws Express's RangeError",
    " * otherwise; Fastify's reply.code takes 100–599, so 600–999 go on Node's response as Express set them.",
    ' */',
    `function setStatus(reply${reply}, code${t(': number')}) {`,
    '  const status = code | 0;',
    "  if (status < 100 || status > 999) throw Object.assign(new RangeError(`Invalid status code: ${Object.is(code, -0) ? '-0' : code}`), { code: 'ERR_HTTP_INVALID_STATUS_CODE' });",
    '  if (status <= 599) reply.code(code);',
    '  else reply.raw.statusCode = code;',
    '}',
  ];
}

/** Express 5.x lib/response.js `send`. */
function sendExpress5(t: (a: string) => string, reply: string, exported: string): string[] {
  return [
    '/**',
    " * Express 5's `res.send(body)`: a string is HTML, or keeps the type set before with charset=utf-8;",
    ' * null is an empty body; a Buffer or other ArrayBuffer view binary; anything else (numbers too) JSON',
    " * (res.json, with the app's 'json spaces': `spaces`).",
    ' */',
    `${exported}function sendLikeExpress(reply${reply}, body${t(': unknown')}, spaces${t('?: number')})${t(': FastifyReply<any>')} {`,
    '  let chunk = body;',
    '  switch (typeof chunk) {',
    "    case 'string': {",
    "      const type = reply.getHeader('content-type');",
    "      reply.type(typeof type === 'string' ? setCharset(type) : 'text/html; charset=utf-8');",
    '      break;',
    '    }',
    "    case 'boolean':",
    "    case 'number':",
    "    case 'object':",
    "      if (chunk === null) chunk = '';",
    '      else if (ArrayBuffer.isView(chunk)) {',
    "        if (!reply.getHeader('content-type')) reply.type('application/octet-stream');",
    '      } else return jsonLikeExpress(reply, chunk, spaces);',
    '      break;',
    '  }',
    '  return answer(reply, chunk);',
    '}',
  ];
}
