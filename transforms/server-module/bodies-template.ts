/**
 * The generated code with which Fastify parses the bodies of the moved routes that run no Express
 * code, as the app's body parsers did (`plugins` stage, issue 18 item 2; fastify-bodies.ts says
 * when and with what): `parseBodiesLikeExpress(instance, expressFree, [parser, …])` in the plugin
 * around the moved routes registers one Fastify content-type parser per parser's types and a
 * preParsing hook doing what body-parser does before and while reading (lib/read.js): the charset
 * check, inflation, the limit, the length check, each failing with body-parser's error (raw-body's
 * messages, `type`, `status`, `expose`, and `limit` … as properties). The body is decoded with the
 * request's charset and parsed by the parser's `parse` (jsonLikeBodyParser, formLikeBodyParser, or
 * the text or bytes as they are); a parse error, like body-parser's, is a 400 with the `body` and
 * `type: 'entity.parse.failed'`, handed on as the body and thrown at preValidation, so that the
 * answer keeps the connection open as Express's did (an error from a content-type parser closes
 * it). A parser with the app's `verify` parses at preValidation instead, where the reply is:
 * `verify(request.raw, reply.raw, bytes, charset)` first, as body-parser called it with Express's
 * request and response, a throw a 403 `entity.verify.failed` with the bytes as `body`
 * (body-parsers.ts carriedAccess carries only a verify that reads what Node's request has).
 * The hooks read Fastify's request only: one that read `request.raw` would keep the routes on
 * the Express app (express-free.ts). The other moved
 * routes' bodies are left unread, for the app's parsers in the Express hook (`unreadBody`).
 */

/** The function the plugin around the moved routes calls. */
export const PARSE_BODIES = 'parseBodiesLikeExpress';
/** The functions this template writes, in order (a module has each once). */
export const BODY_FUNCTIONS = ['parseBodiesLikeExpress', 'unreadBody', 'readLikeBodyParser', 'parsedLikeBodyParser', 'verifiedLikeBodyParser', 'charsetOf', 'bodyParserError', 'jsonLikeBodyParser', 'strictSyntaxError', 'formLikeBodyParser', 'decodableCharset'] as const;

/**
 * The hooks parseBodiesLikeExpress adds. The preValidation one hands a carried `verify` Fastify's
 * `request.raw` and `reply.raw`, which does not keep a route on the Express app: the verify was
 * carried because it reads only what Node's request has (express-free.ts).
 */
export const BODY_HOOKS: ReadonlySet<string> = new Set(['readBodyLikeExpress', 'bodyErrorLikeExpress']);


/** One parser as `parseBodiesLikeExpress` takes it (a literal in the generated call; fastify-bodies.ts writes it). */
export interface BodyParserLiteral {
  /** Its content types, lowercase `type/subtype`. */
  types: string[];
  /** Its limit in bytes. */
  limit: number;
  /** The Content-Encodings it inflates, or false (`inflate: false`). */
  inflate: string[] | false;
  /** Its default charset, or null for a parser that keeps bytes (raw). */
  charset: string | null;
  /** Source of `(charset) => boolean`: which charsets it reads (absent with charset null). */
  charsets?: string;
  /** Source of its parse function: `(body, charset) => value`. */
  parse: string;
  /** Source of the app's `verify` function it carries (`keepRaw`, `require('./app').keepRaw`). */
  verify?: string;
}

/** `parseBodiesLikeExpress(instance, expressFree, [ … ]);` with its comment, for the plugin around the moved routes. */
export function parseBodiesCallLines(instance: string, routes: string, parsers: BodyParserLiteral[], version: string): string[] {
  const q = (s: string) => `'${s.replace(/\\/g, '\\\\').replace(/'/g, "\\'")}'`;
  const literal = (p: BodyParserLiteral) =>
    `{ types: [${p.types.map(q).join(', ')}], limit: ${p.limit}, inflate: ${p.inflate ? `[${p.inflate.map(q).join(', ')}]` : 'false'}, charset: ${p.charset === null ? 'null' : q(p.charset)}${p.charsets ? `, charsets: ${p.charsets}` : ''}, parse: ${p.parse}${p.verify ? `, verify: ${p.verify}` : ''} },`;
  return [
    `// The listed routes' bodies, parsed by Fastify as the app's body parsers (body-parser ${version}) parsed them;`,
    "// the other moved routes' bodies stay for the app's parsers in the Express hook.",
    `${PARSE_BODIES}(${instance}, ${routes}, [`,
    ...parsers.map((p) => `  ${literal(p)}`),
    ']);',
  ];
}

/** The functions, in JavaScript or TypeScript; `uses` leaves out the parse functions and the verify step no parser uses. */
export function bodyFunctionLines(typescript: boolean, uses: { json: boolean; form: boolean; verify: boolean }): string[] {
  const verify = (lines: string[]) => (uses.verify ? lines : []);
  const t = (annotation: string) => (typescript ? annotation : '');
  const parser = t(': BodyParser');
  return [
    ...(typescript
      ? [
          '/** One of the app\'s body parsers, as parseBodiesLikeExpress reads it. */',
          'interface BodyParser {',
          '  types: string[];',
          '  limit: number;',
          '  inflate: string[] | false;',
          '  charset: string | null;',
          '  charsets?: (charset: string) => boolean;',
          '  parse: (body: any, charset: string) => unknown;',
          // A method signature: the app's verify may type its parameters more narrowly, as body-parser's own types let it.
          ...verify(['  verify?(req: any, res: any, buf: Buffer, encoding: string | null): void;']),
          '}',
          '',
        ]
      : []),
    '/**',
    " * The app's body parsers as Fastify content-type parsers in `instance`, for the moved routes `routes`",
    ' * lists with body parsers (`migrate run --stage plugins`): each reads its own types with its own limit,',
    ' * inflation and charsets, and gives the body body-parser gave, or its error (lib/read.js), so the app\'s',
    ' * error handler answers as before. Other bodies stay unread, as in Express: those of other types, and',
    ' * those of the other moved routes, which the app\'s parsers read in the Express hook.',
    ' */',
    `function ${PARSE_BODIES}(instance${t(': FastifyInstance')}, routes${t(': Record<string, unknown[]>')}, parsers${t(': BodyParser[]')}) {`,
    '  // A route listed with the first n of the parsers (those that covered it in Express) has them parse.',
    `  const parses = (request${t(': FastifyRequest')}, index${t(': number')}) => (routes[routeKey(request)${t(' as string')}] || []).length > index;`,
    '  instance.removeAllContentTypeParsers();',
    '  instance.addContentTypeParser(\'*\', (_request, _payload, done) => done(null));',
    `  const taken = new Set${t('<string>')}();`,
    ...verify([`  const unverified = new WeakMap${t('<FastifyRequest, { parser: BodyParser; body: Buffer }>')}();`]),
    '  parsers.forEach((parser, index) => {',
    '    const types = parser.types.filter((type) => !taken.has(type));',
    '    for (const type of types) taken.add(type);',
    '    // The limit is the parser\'s own, kept while reading (readLikeBodyParser) with body-parser\'s error.',
    `    if (types.length) instance.addContentTypeParser(types, { parseAs: 'buffer', bodyLimit: Number.MAX_SAFE_INTEGER }, (request, body${t(': Buffer')}, done) => {`,
    '      if (!parses(request, index)) return done(null);',
    ...verify([
      "      // The app's verify takes the response too: it runs at preValidation, where the reply is.",
      '      if (parser.verify) {',
      '        unverified.set(request, { parser, body });',
      '        return done(null);',
      '      }',
    ]),
    '      // An error as the body (no body parsed is an Error), thrown at preValidation.',
    '      done(null, parsedLikeBodyParser(request, parser, body));',
    '    });',
    '  });',
    `  instance.addHook('preParsing', function readBodyLikeExpress(request, _reply, payload, done) {`,
    "    // Fastify reads no body of a GET or HEAD: the app's parsers read one in the Express hook.",
    "    if (request.method === 'GET' || request.method === 'HEAD') return done(null, payload);",
    "    const type = String(request.headers['content-type'] || '').split(';')[0].trim().toLowerCase();",
    '    const index = parsers.findIndex((p) => p.types.includes(type));',
    '    if (index < 0) return done(null, payload);',
    '    if (!parses(request, index)) return done(null, unreadBody(request));',
    '    try {',
    '      done(null, readLikeBodyParser(request, payload, parsers[index]));',
    '    } catch (error) {',
    `      done(error${t(' as Error')});`,
    '    }',
    '  });',
    `  instance.addHook('preValidation', function bodyErrorLikeExpress(request, ${uses.verify ? 'reply' : '_reply'}, done) {`,
    ...verify(['    const pending = unverified.get(request);', '    if (pending) request.body = verifiedLikeBodyParser(request, reply, pending.parser, pending.body);']),
    '    done(request.body instanceof Error ? request.body : undefined);',
    '  });',
    '}',
    '',
    "/** The body `parser` gives for `bytes` (body-parser's lib/read.js: decoded with the request's charset, then parsed), or its 400 error. */",
    `function parsedLikeBodyParser(request${t(': FastifyRequest')}, parser${parser}, bytes${t(': Buffer')}) {`,
    '  const charset = charsetOf(request, parser);',
    '  const text = charset === null ? bytes : new TextDecoder(charset).decode(bytes);',
    '  try {',
    `    return parser.parse(text, charset${t(' as string')});`,
    '  } catch (error) {',
    `    return bodyParserError(400, error${t(' as Error')}, { body: text, type: ${typescript ? '(error as any)' : 'error'}.type || 'entity.parse.failed' });`,
    '  }',
    '}',
    ...verify([
      '',
      '/**',
      " * The body `parser` gives for `bytes` after the app's `verify` saw them as body-parser calls it",
      " * (lib/read.js: Express's request and response, the bytes, the charset or null): a throw is body-parser's 403.",
      ' */',
      `function verifiedLikeBodyParser(request${t(': FastifyRequest')}, reply${t(': FastifyReply')}, parser${parser}, bytes${t(': Buffer')}) {`,
      '  try {',
      `    parser.verify${t('!')}(request.raw, reply.raw, bytes, charsetOf(request, parser));`,
      `  } catch (error${t(': any')}) {`,
      "    // http-errors keeps an Error, makes a string its message, and gives anything else its own 403.",
      "    const thrown = error instanceof Error || typeof error === 'string' ? error : 'Forbidden';",
      "    return bodyParserError(403, thrown, { body: bytes, type: (error && error.type) || 'entity.verify.failed' });",
      '  }',
      '  return parsedLikeBodyParser(request, parser, bytes);',
      '}',
    ]),
    '',
    '/** What Fastify reads in place of a body left for the app\'s Express parsers: nothing, of the declared length. */',
    `function unreadBody(request${t(': FastifyRequest')}) {`,
    `  return Object.assign(Readable.from([]), { receivedEncodedLength: Number(request.headers['content-length']) || 0 });`,
    '}',
    '',
    '/**',
    ' * The body of `request` as body-parser reads it (lib/read.js, raw-body): the charset checked, the body',
    ' * inflated, and no more than the parser\'s limit nor other than the declared length read, each failure',
    ' * body-parser\'s error; Fastify reads the stream returned.',
    ' * @throws the charset, encoding and declared-length errors, before anything is read',
    ' */',
    `function readLikeBodyParser(request${t(': FastifyRequest')}, payload${t(': NodeJS.ReadableStream')}, parser${parser}) {`,
    '  const charset = charsetOf(request, parser);',
    '  // body-parser refuses a charset its rule excludes, or one it cannot decode (read.js: iconv.encodingExists).',
    `  if (charset !== null && !(parser.charsets${t('!')}(charset) && decodableCharset(charset))) throw bodyParserError(415, \`unsupported charset "\${charset.toUpperCase()}"\`, { charset, type: 'charset.unsupported' });`,
    "  const encoding = String(request.headers['content-encoding'] || 'identity').toLowerCase();",
    "  if (!parser.inflate && encoding !== 'identity') throw bodyParserError(415, 'content encoding unsupported', { encoding, type: 'encoding.unsupported' });",
    "  if (parser.inflate && encoding !== 'identity' && !parser.inflate.includes(encoding)) throw bodyParserError(415, `unsupported content encoding \"${encoding}\"`, { encoding, type: 'encoding.unsupported' });",
    "  const declared = request.headers['content-length'];",
    "  const length = encoding === 'identity' && declared !== undefined && !isNaN(Number(declared)) ? parseInt(declared, 10) : null;",
    "  if (length !== null && length > parser.limit) throw bodyParserError(413, 'request entity too large', { expected: length, length, limit: parser.limit, type: 'entity.too.large' });",
    '  let received = 0;',
    '  const counted = new Transform({',
    `    transform(chunk${t(': Buffer')}, _encoding, next) {`,
    '      received += chunk.length;',
    "      if (received > parser.limit) return next(bodyParserError(413, 'request entity too large', { limit: parser.limit, received, type: 'entity.too.large' }));",
    '      next(null, chunk);',
    '    },',
    '    flush(next) {',
    "      next(length !== null && received !== length ? bodyParserError(400, 'request size did not match content length', { expected: length, length, received, type: 'request.size.invalid' }) : null);",
    '    },',
    '  });',
    "  if (encoding === 'identity') return payload.pipe(counted);",
    `  const inflate = encoding === 'br' ? zlib.createBrotliDecompress() : encoding === 'gzip' ? zlib.createGunzip() : zlib.createInflate();`,
    '  // Fastify compares what arrived, before inflation, with Content-Length.',
    `  const encoded = Object.assign(counted, { receivedEncodedLength: 0 });`,
    `  payload.on('data', (chunk${t(': Buffer')}) => (encoded.receivedEncodedLength += chunk.length));`,
    `  inflate.on('error', (error) => counted.destroy(bodyParserError(400, error)));`,
    '  return payload.pipe(inflate).pipe(counted);',
    '}',
    '',
    '/** The charset `parser` decodes the body of `request` with: its `charset` parameter, else the parser\'s default (null: bytes). */',
    `function charsetOf(request${t(': FastifyRequest')}, parser${parser}) {`,
    '  if (parser.charset === null) return null;',
    "  const match = /;\\s*charset\\s*=\\s*\"?([^\";\\s]+)/i.exec(request.headers['content-type'] || '');",
    '  return match ? match[1].toLowerCase() : parser.charset;',
    '}',
    '',
    '/**',
    ' * An error as body-parser makes it (http-errors): `error` itself, or a new one with `message` named by',
    " * `status`, with `status` (the error's own first, 500 for one that is no error status), `statusCode`,",
    ' * `expose` (the status is under 500) and `props`.',
    ' */',
    `function bodyParserError(status${t(': number')}, error${t(': string | Error')}, props${t('?: object')}) {`,
    `  const names = { 400: 'BadRequestError', ${uses.verify ? "403: 'ForbiddenError', " : ''}413: 'PayloadTooLargeError', 415: 'UnsupportedMediaTypeError' };`,
    `  const made${t(': any')} = typeof error === 'string' ? Object.assign(new Error(error), { name: names[status${t(' as 400')}] }) : error;`,
    '  const own = made.status || made.statusCode || status;',
    "  const code = typeof own === 'number' && (http.STATUS_CODES[own] || (own >= 400 && own < 600)) ? own : 500;",
    '  return Object.assign(made, { status: code, statusCode: code, expose: code < 500 }, props);',
    '}',
    ...(uses.json
      ? [
          '',
          '/** body-parser\'s JSON parse (lib/types/json.js): `{}` for an empty body; `strict`, an object or array only. */',
          `function jsonLikeBodyParser(strict${t(': boolean')}) {`,
          `  return (text${t(': string')}) => {`,
          '    if (text.length === 0) return {};',
          '    const first = /^[\\x20\\x09\\x0a\\x0d]*([^\\x20\\x09\\x0a\\x0d])/.exec(text);',
          "    if (strict && first && first[1] !== '{' && first[1] !== '[') throw strictSyntaxError(text, first[1]);",
          '    return JSON.parse(text);',
          '  };',
          '}',
          '',
          '/** The SyntaxError body-parser gives for a strict violation: JSON.parse\'s own message for the text up to `char`. */',
          `function strictSyntaxError(text${t(': string')}, char${t(': string')}) {`,
          '  const index = text.indexOf(char);',
          "  const partial = index !== -1 ? text.substring(0, index) + '#'.repeat(text.length - index) : '';",
          '  try {',
          '    JSON.parse(partial);',
          "    return new SyntaxError('strict violation');",
          '  } catch (error) {',
          `    const failed = error${t(' as Error')};`,
          '    const message = failed.message.replace(/#+/g, (placeholder) => text.substring(index, index + placeholder.length));',
          `    failed.stack = failed.stack${t('!')}.replace(failed.message, message);`,
          '    failed.message = message;',
          '    return failed;',
          '  }',
          '}',
        ]
      : []),
    ...(uses.form
      ? [
          '',
          '/**',
          ' * body-parser\'s urlencoded parse (lib/types/urlencoded.js): `{}` for an empty body, 413 beyond',
          ' * `parameterLimit` parameters, `parse(body, count, charset)` for the rest, its depth error a 400.',
          ' */',
          `function formLikeBodyParser(parameterLimit${t(': number')}, parse${t(': (body: string, count: number, charset: string) => unknown')}) {`,
          `  return (body${t(': string')}, charset${t(': string')}) => {`,
          '    if (body.length === 0) return {};',
          "    const count = body.split('&').length;",
          "    if (count > parameterLimit) throw bodyParserError(413, 'too many parameters', { type: 'parameters.too.many' });",
          '    try {',
          '      return parse(body, count, charset);',
          '    } catch (error) {',
          "      if (error instanceof RangeError) throw bodyParserError(400, 'The input exceeded the depth', { type: 'querystring.parse.rangeError' });",
          '      throw error;',
          '    }',
          '  };',
          '}',
        ]
      : []),
    '',
    '/** Whether `charset` decodes (body-parser: whatever iconv-lite decodes; here, the WHATWG decoder). */',
    `function decodableCharset(charset${t(': string')}) {`,
    '  try {',
    '    return Boolean(new TextDecoder(charset));',
    '  } catch (_error) {',
    '    return false;',
    '  }',
    '}',
  ];
}
