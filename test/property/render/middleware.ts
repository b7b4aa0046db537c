/**
 * Local middleware of a generated app (request id, logger, auth guard, role factory) and the
 * `middleware/` modules that export them and the error middleware. Canonical style.
 */
import type { LocalMiddleware } from '../spec.js';
import { errorHandlerFunction, HTTP_ERROR_TYPE, indent, params, type HandlerContext } from './handlers.js';
import { modulePath, type RenderContext } from './common.js';
import { ModuleWriter } from './module-writer.js';

/** Module-level state a local middleware needs (`let requestCount = 0;`). */
export function localMiddlewareState(kind: LocalMiddleware): string[] {
  return kind === 'requestId' ? ['let requestCount = 0;', ''] : [];
}

/** The body of local middleware `kind` (it ends with `next()` or answers 401). */
export function localMiddlewareBody(kind: LocalMiddleware): string[] {
  switch (kind) {
    case 'requestId':
      return ["res.setHeader('X-Request-Id', String(++requestCount));", 'next();'];
    case 'logger':
      return ['console.log(`${req.method} ${req.originalUrl}`);', 'next();'];
    case 'poweredBy':
      return ["res.set('X-Powered-By', 'generated-app');", 'next();'];
    case 'requireAuth':
      return ['if (!req.headers.authorization) {', "  return res.status(401).json({ error: 'unauthorized' });", '}', 'next();'];
  }
}

/** `function name(req, res, next) { … }` lines, typed in TypeScript. */
export function localMiddlewareDeclaration(ctx: HandlerContext, kind: LocalMiddleware): string[] {
  return [`function ${kind}${params(ctx, ['req', 'res', 'next'], true)} {`, ...indent(localMiddlewareBody(kind)), '}'];
}

/** Writes every `middleware/<file>` module the other files imported from, and `middleware/errors`. */
export function writeMiddlewareModules(rc: RenderContext): void {
  for (const [file, names] of rc.localModules) {
    const w = new ModuleWriter(modulePath(rc, file) + rc.ext, rc.spec.module);
    const ctx = moduleContext(rc, w);
    for (const name of [...names].sort()) {
      if (name === 'requireRole') {
        w.exported('requireRole', [`function requireRole(role${w.ts ? ': string' : ''}) {`, `  return ${params(ctx, ['req', 'res', 'next'], true)} => {`, "    if (req.headers['x-role'] !== role) {", "      return res.status(403).json({ error: 'forbidden' });", '    }', '    next();', '  };', '}', '']);
      } else {
        w.line(...localMiddlewareState(name));
        w.exported(name, [...localMiddlewareDeclaration(ctx, name), '']);
      }
    }
    rc.files[w.file] = w.toString();
  }
  if (rc.errorModule.length > 0) {
    const w = new ModuleWriter(modulePath(rc, 'middleware/errors') + rc.ext, rc.spec.module);
    const ctx = moduleContext(rc, w);
    if (w.ts) w.line(HTTP_ERROR_TYPE, '');
    for (const h of rc.errorModule) {
      const fn = errorHandlerFunction(ctx, h.spec, h.name);
      w.exported(h.name, [`${fn.head} {`, ...indent(fn.body), '}', '']);
    }
    rc.files[w.file] = w.toString();
  }
}

function moduleContext(rc: RenderContext, w: ModuleWriter): HandlerContext {
  return { w, express: rc.spec.express, asyncErrorsHandled: true, resource: 'items', parentParam: null, declared: new Set(), uses: { store: false, asyncHelpers: new Set() } };
}
