/**
 * How a generated app listens: the server module (`server.js`/`server.ts` importing the app) or the
 * tail of the app module itself, in the listen shapes the shim stage must keep (issue 7: `listen(port)`,
 * `listen(port, cb)`, `listen(port, host, cb)`, `server.address()`, `http.createServer(app)`,
 * `require.main === module`, ESM top-level await). Canonical style.
 */
import type { AppSpec } from '../spec.js';
import { indent } from './handlers.js';
import { modulePath, type RenderContext } from './common.js';
import { ModuleWriter } from './module-writer.js';

/** The statements that make `app` listen, in `w` (imports `http` when the shape needs it). */
export function listenLines(rc: RenderContext, w: ModuleWriter, spec: AppSpec): string[] {
  const out = [portDeclaration(w, spec)];
  if (spec.host) out.push(`const host = ${spec.host};`);
  out.push('');
  const log = '  console.log(`Listening on port ${port}`);';
  switch (spec.listen) {
    case 'port':
      return [...out, 'app.listen(port);'];
    case 'port-callback':
      if (!w.ts && rc.cosmetic.chance(0.4)) return [...out, 'app.listen(port, function () {', "  console.log('Listening on port ' + this.address().port);", '});'];
      return [...out, 'app.listen(port, () => {', log, '});'];
    case 'port-host-callback':
      return [...out, 'app.listen(port, host, () => {', '  console.log(`Listening on http://${host}:${port}`);', '});'];
    case 'server-address':
      return [...out, 'const server = app.listen(port, () => {', '  const address = server.address();', "  console.log('Listening on', typeof address === 'string' ? address : address?.port);", '});'];
    case 'http-create-server': {
      const http = w.importDefault(rc.cosmetic.chance(0.5) ? 'node:http' : 'http', 'http');
      if (rc.cosmetic.chance(0.4)) return [...out, `${http}.createServer(app).listen(port);`];
      return [...out, `const server = ${http}.createServer(app);`, '', 'server.listen(port, () => {', log, '});'];
    }
    case 'require-main':
      return [...out, 'if (require.main === module) {', ...indent(['app.listen(port, () => {', log, '});']), '}'];
    case 'top-level-await':
      return [...out, `await new Promise${w.ts ? '<void>' : ''}((resolve) => {`, '  app.listen(port, () => resolve());', '});', 'console.log(`Listening on port ${port}`);'];
  }
}

function portDeclaration(w: ModuleWriter, spec: AppSpec): string {
  if (spec.port === 'literal') return 'const port = 3000;';
  if (spec.port === 'env-or' && !w.ts) return 'const port = process.env.PORT || 3000;';
  return 'const port = Number(process.env.PORT ?? 3000);';
}

/** Writes `server.<ext>`: imports the app and listens. */
export function writeServer(rc: RenderContext): void {
  const w = new ModuleWriter(modulePath(rc, 'server') + rc.ext, rc.spec.module);
  w.importDefault(w.local(modulePath(rc, 'app')), 'app');
  w.line(...listenLines(rc, w, rc.spec));
  rc.files[w.file] = w.toString();
}
