/**
 * The res → reply and req → request rows (transforms/handler-rewrite/forms.ts) as the `errors` steps
 * apply them (transforms/handler-rewrite/rewrite.ts): each Express form in a handler, the
 * Fastify form it becomes, or the reason it refuses.
 */
import { describe, expect, it } from 'vitest';
import { planHandlerRewrite, type HandlerOptions } from '../../transforms/handler-rewrite/rewrite.js';
import { functionPaths, jFor } from '../../transforms/lib/ast.js';
import { expressContentType } from '../../transforms/handler-rewrite/content-type.js';

const ERROR: HandlerOptions = { role: 'error', nextToDefault: true, jsonSettings: false, typescript: false };

/** Rewrites the first function of `code`; returns the refusals, or the printed source after the rewrite. */
function rewrite(code: string, options: Partial<HandlerOptions> = {}, file = 'x.js'): { refusals: string[]; out: string; types: string[] } {
  const j = jFor(file);
  const root = j(code);
  const fn = functionPaths(j, root).sort((a, b) => a.node.start - b.node.start)[0];
  const result = planHandlerRewrite(j, fn, { ...ERROR, ...options });
  if (result.refusals.length) return { refusals: result.refusals, out: code, types: [] };
  result.apply();
  return { refusals: [], out: root.toSource({ quote: 'single' }), types: result.types };
}

/** The body line a one-statement error handler becomes. */
function body(statement: string, options: Partial<HandlerOptions> = {}): string {
  const { refusals, out } = rewrite(`function h(err, req, res, next) {\n  ${statement}\n}`, options);
  if (refusals.length) return `REFUSED: ${refusals.join('; ')}`;
  return out.split('\n')[1].trim();
}

describe('res → reply', () => {
  it.each([
    ['res.status(404).json({ error: err.message });', 'reply.code(404).send({ error: err.message });'],
    ["res.json('text');", "reply.type('application/json; charset=utf-8').send(JSON.stringify('text'));"],
    ['res.json(payload);', "reply.type('application/json; charset=utf-8').send(JSON.stringify(payload));"],
    ['res.json();', "reply.type('application/json; charset=utf-8').send(JSON.stringify(undefined));"],
    ["res.send('<p>oops</p>');", "reply.type('text/html; charset=utf-8').send('<p>oops</p>');"],
    ['res.send(`oops ${err.message}`);', "reply.type('text/html; charset=utf-8').send(`oops ${err.message}`);"],
    ["res.send('oops: ' + err.message);", "reply.type('text/html; charset=utf-8').send('oops: ' + err.message);"],
    ['res.send({ error: err.message });', 'reply.send({ error: err.message });'],
    ['res.send([1, 2]);', 'reply.send([1, 2]);'],
    ['res.send(null);', 'reply.send();'],
    ['res.send();', 'reply.send();'],
    ["res.type('json').send('{}');", "reply.type('application/json; charset=utf-8').send('{}');"],
    ["res.set('Content-Type', 'text/plain').send('x');", "reply.header('Content-Type', 'text/plain; charset=utf-8').send('x');"],
    ["res.set('X-Error', err.name);", "reply.header('X-Error', err.name);"],
    ["res.header('X-Error', 'yes');", "reply.header('X-Error', 'yes');"],
    ["res.set({ 'X-A': 'b' });", "reply.headers({ 'X-A': 'b' });"],
    ["res.setHeader('X-Error', err.name);", "reply.header('X-Error', err.name);"],
    ['res.sendStatus(404);', "reply.code(404).type('text/plain; charset=utf-8').send('Not Found');"],
    ['res.sendStatus(418);', "reply.code(418).type('text/plain; charset=utf-8').send('I\\'m a Teapot');"],
    ['res.status(500).end();', 'reply.code(500).send();'],
    ["const t = res.get('Content-Type');", "const t = reply.getHeader('Content-Type');"],
    ['if (res.headersSent) return next(err);', 'if (reply.raw.headersSent) return reply.send(err);'],
    ['res.statusCode = 500;', 'reply.statusCode = 500;'],
    // After the shim the app's Express middleware ran on every request before the handler (the bridge): Express's res is reply.raw.
    ['res.locals.error = err;', 'reply.raw.locals.error = err;'],
    ["res.redirect('/oops');", "reply.redirect('/oops');"],
  ])('%s', (express, fastify) => {
    expect(body(express)).toBe(fastify);
  });

  it('renders with reply.view when the root registers @fastify/view as the app\'s views (the errors stage does, for a handler that renders)', () => {
    expect(body("res.status(500).render('error', { err });", { views: true })).toBe("reply.code(500).view('error', { err });");
    expect(body("res.render('error');", { views: "the app sets no 'view engine'" })).toContain("res.render: the app sets no 'view engine'");
  });

  it('keeps a const bound to an object literal as an object (no JSON.stringify)', () => {
    const { out } = rewrite('function h(err, req, res, next) {\n  const body = { error: err.message };\n  res.status(500).json(body);\n}');
    expect(out).toContain('reply.code(500).send(body);');
  });

  it('sends a const bound to a string as HTML, as Express does', () => {
    const { out } = rewrite("function h(err, req, res, next) {\n  const page = '<h1>Error</h1>';\n  res.send(page);\n}");
    expect(out).toContain("reply.type('text/html; charset=utf-8').send(page);");
  });

  it.each([
    ['res.send(value);', 'res.send of a value whose type is known only at run time'],
    ['res.send(42);', 'res.send(number)'],
    ["res.render('error', { err });", 'res.render needs @fastify/view'],
    ["res.cookie('a', 'b');", 'res.cookie needs @fastify/cookie'],
    ['res.sendStatus(code);', 'res.sendStatus(…) with a status known only at run time'],
    ["res.end('bye');", 'res.end(data)'],
    ["res.set({ 'Content-Type': 'text/plain' });", 'res.set({…}) with a Content-Type'],
    ["res.setHeader('Content-Type', 'text/plain');", "res.setHeader('Content-Type', …): Express's res.send adds a charset"],
    ['res.setHeader(name, value);', 'res.setHeader(name, …) with a header name known only at run time'],
    ['res.type(kind);', 'res.type(…) with a type known only at run time'],
    ["res.type('png');", "res.type('png')"],
    ['log(res);', 'it passes `res` on as a value'],
    ['res.jsonp({});', 'res.jsonp'],
    ['res.vary(x);', 'res.vary has no Fastify form'],
  ])('%s refuses', (express, reason) => {
    expect(body(express)).toContain(reason);
  });

  it("refuses res.json when the app sets 'json spaces' (reply.send prints without them)", () => {
    expect(body('res.json({ a: 1 });', { jsonSettings: true })).toContain("'json spaces'");
  });

  it('refuses an async handler that answers from a callback (Fastify would answer an empty 200 first)', () => {
    const { refusals } = rewrite('async function h(err, req, res, next) {\n  setTimeout(() => res.status(500).json({}), 1);\n}');
    expect(refusals.join()).toContain('answers from a callback');
  });
});

describe('req → request', () => {
  it.each([
    ['console.log(req.method, req.originalUrl);', 'console.log(request.method, request.originalUrl);'],
    ['console.log(req.url);', 'console.log(request.url);'],
    ['console.log(req.path);', "console.log(request.url.split('?')[0]);"],
    ['console.log(req.headers.host);', 'console.log(request.headers.host);'],
    ["console.log(req.get('X-Request-Id'));", "console.log(request.headers['x-request-id']);"],
    ["console.log(req.header('Referrer'));", "console.log(request.headers['referrer'] || request.headers['referer']);"],
    // What Express and its middleware put on the request, read where they put it (the route Fastify matched is the bridge's).
    ['console.log(req.body);', 'console.log(request.raw.body);'],
    ['console.log(req.user.id);', 'console.log(request.raw.user.id);'],
    ['console.log(req.query.q);', 'console.log(request.raw.query.q);'],
    ["console.log(req.app.get('env'));", "console.log(request.raw.app.get('env'));"],
    ["console.log(req.accepts('json'), req.is('html'));", "console.log(request.raw.accepts('json'), request.raw.is('html'));"],
    // Express's getters, with the app's trust proxy setting (Fastify's request.ip drops `::ffff:`).
    ['console.log(req.ip, req.ips, req.protocol, req.secure, req.hostname, req.xhr);', 'console.log(request.raw.ip, request.raw.ips, request.raw.protocol, request.raw.secure, request.raw.hostname, request.raw.xhr);'],
  ])('%s', (express, fastify) => {
    expect(body(express)).toBe(fastify);
  });

  it.each([
    ["console.log(req.acceptsLanguages('fr'));", 'req.acceptsLanguages'],
    ['console.log(req.params.id);', 'req.params in an app-level error or 404 handler'],
    ['req.url = "/x";', 'it writes req.url'],
    ['logger.error(err, req);', 'it passes `req` on as a value'],
    ['console.log(req.get(name));', 'req.get(…) with a header name known only at run time'],
  ])('%s refuses', (express, reason) => {
    expect(body(express)).toContain(reason);
  });
});

describe('next and the error', () => {
  it('next(err) becomes reply.send(err) (Fastify’s default handler) only for the last error handler', () => {
    expect(body('next(err);')).toBe('reply.send(err);');
    expect(body('next(err);', { nextToDefault: false })).toContain('passes errors on with next(err)');
    expect(body('next();')).toContain('calls next() without an error');
  });

  it('a 404 handler that calls next() refuses; next(createError(404)) becomes reply.send(…) when the error handlers end in Fastify', () => {
    expect(rewrite('function nf(req, res, next) {\n  next();\n}', { role: 'not-found' }).refusals.join()).toContain('must answer');
    expect(rewrite('function nf(req, res, next) {\n  next(createError(404));\n}', { role: 'not-found' }).out).toContain('function nf(request, reply) {\n  reply.send(createError(404));');
    expect(rewrite('function nf(req, res, next) {\n  next(createError(404));\n}', { role: 'not-found', nextToDefault: false }).refusals.join()).toContain('error middleware that stays on Express');
    // Express takes any value as the error; reply.send would answer 200 with a plain object or a string as the body.
    expect(rewrite("function nf(req, res, next) {\n  next({ status: 404, message: 'Path not found' });\n}", { role: 'not-found' }).refusals.join()).toContain('it passes a plain object to next(…): Express takes it as the error');
    expect(rewrite("function nf(req, res, next) {\n  next('missing');\n}", { role: 'not-found' }).refusals.join()).toContain('it passes a string to next(…)');
  });

  it.each([
    ['const s = err.status || 500;', 'const s = err.status || err.statusCode || 500;'],
    ['res.status(err.status).json({});', 'reply.code(err.status || err.statusCode).send({});'],
    // `??` where the app wrote one: `||` next to it would not parse.
    ['res.status(err.status ?? 500).json({});', 'reply.code(err.status ?? err.statusCode ?? 500).send({});'],
    ["if (err.type === 'entity.parse.failed') res.status(400).json({});", "if (err.type === 'entity.parse.failed' || err.code === 'FST_ERR_CTP_INVALID_JSON_BODY') reply.code(400).send({});"],
    ["if (err.type !== 'entity.too.large') res.status(500).json({});", "if (err.type !== 'entity.too.large' && err.code !== 'FST_ERR_CTP_BODY_TOO_LARGE') reply.code(500).send({});"],
    ["if (err.type === 'charset.unsupported') res.status(415).json({});", "if (err.type === 'charset.unsupported') reply.code(415).send({});"],
  ])('%s', (express, fastify) => {
    expect(body(express)).toBe(fastify);
  });

  it('leaves err.status alone where the handler already reads err.statusCode, under an instanceof guard, and where it is written', () => {
    expect(body('res.status(err.status ?? err.statusCode ?? 500).json({});')).toBe('reply.code(err.status ?? err.statusCode ?? 500).send({});');
    expect(body('if (err instanceof HttpError) res.status(err.status).json({});')).toBe('if (err instanceof HttpError) reply.code(err.status).send({});');
    expect(body('err.status = 500;')).toBe('err.status = 500;');
  });
});

describe('signature and names', () => {
  it('(err, req, res, next) → (err, request, reply); (req, res) → (request, reply)', () => {
    expect(rewrite('function h(err, req, res, next) { res.json({}); }').out).toContain('function h(err, request, reply)');
    expect(rewrite('function nf(req, res) { res.status(404).json({}); }', { role: 'not-found' }).out).toContain('function nf(request, reply)');
  });

  it('keeps new names free of collisions and keeps the underscore of unused parameters', () => {
    const { out } = rewrite("import request from 'request';\nfunction h(err, _req, res, next) { request(err); res.status(500).json({}); }");
    expect(out).toContain('function h(err, _request, reply)');
    const clash = rewrite("function h(err, req, res, next) { const request = 1; const reply = req.method; res.json({ request, reply }); }");
    expect(clash.out).toContain('function h(err, fastifyRequest, fastifyReply)');
    expect(clash.out).toContain('const reply = fastifyRequest.method;');
  });

  it('refuses handlers whose parameters it cannot read', () => {
    expect(rewrite('function h({ status }, req, res, next) { res.json({}); }').refusals.join()).toContain('destructures');
    expect(rewrite('function h(err, req, res) { res.json({}); }').refusals.join()).toContain('takes 3 parameters');
  });

  it('TypeScript: typed parameters become FastifyRequest / FastifyReply, and err.statusCode is read through a cast', () => {
    const code = "function h(err: Error, req: Request, res: Response, next: NextFunction) {\n  res.status((err as { status?: number }).status ?? 500).json({ m: err.message });\n}";
    const { out, types } = rewrite(code, { typescript: true }, 'x.ts');
    expect(out).toContain('function h(err: Error, request: FastifyRequest, reply: FastifyReply)');
    expect(out).toContain('reply.code((err as { status?: number }).status ?? (err as { statusCode?: number }).statusCode ?? 500)');
    expect(types).toEqual(['FastifyReply', 'FastifyRequest']);
  });

  it('TypeScript: a const typed ErrorRequestHandler loses the type and gets typed parameters', () => {
    const { out } = rewrite("const h: ErrorRequestHandler = (err, req, res, next) => {\n  res.status(500).json({});\n};", { typescript: true }, 'x.ts');
    expect(out).toContain('const h = (err: any, request: FastifyRequest, reply: FastifyReply) => {');
    expect(rewrite('const h: Handler = (err, req, res, next) => { res.json({}); };', { typescript: true }, 'x.ts').refusals.join()).toContain('typed with a type');
  });
});

describe('expressContentType', () => {
  it.each([
    ['html', 'text/html; charset=utf-8'],
    ['json', 'application/json; charset=utf-8'],
    ['.txt', 'text/plain; charset=utf-8'],
    ['text/plain', 'text/plain; charset=utf-8'],
    ['application/problem+json', 'application/problem+json'],
    ['text/html; charset=iso-8859-1', 'text/html; charset=iso-8859-1'],
    ['image/png', 'image/png'],
  ])('%s → %s', (type, full) => {
    expect(expressContentType(type)).toBe(full);
  });

  it('refuses extensions whose type Express 4 and 5 resolve differently or that it does not know', () => {
    expect(expressContentType('js')).toBeNull();
    expect(expressContentType('png')).toBeNull();
  });

  it('refuses types Express 4 reads as written and Express 5 trimmed and lower-cased (the charset differs)', () => {
    expect(expressContentType('TEXT/HTML')).toBeNull();
    expect(expressContentType(' text/plain')).toBeNull();
    expect(expressContentType('application/json5')).toBeNull();
    expect(expressContentType('application/json; charset=utf-8')).toBe('application/json; charset=utf-8');
  });
});
