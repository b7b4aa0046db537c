/**
 * A synthetic Express 4 app for the analysis benchmark (bench/analyze.ts): an ESM project
 * ("type": "module") whose source files alternate between .js and .ts and import each other with
 * `.js` specifiers. Routing is three mounts deep: app → area router → resource router → routes,
 * with every mount path and most route paths taken from constants in other files.
 *
 *   src/app.ts                  entry: app.use(PREFIX.v1 + AREA.area00, area00), …
 *   src/paths.ts                API, ID, PREFIX, AREA
 *   src/middleware/auth.js      auth, requireRole(role)
 *   src/middleware/validate.ts  validate(fields)
 *   src/areas/areaNN/paths.*    R = { users: '/users', … } (resource mount paths)
 *   src/areas/areaNN/index.*    area router: router.use(R.users, users), …
 *   src/areas/areaNN/<res>.*    about 100 lines, 4–6 handlers, local middleware
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';

export interface SyntheticApp {
  /** Absolute app folder. */
  dir: string;
  /** Absolute paths of every source file written. */
  files: string[];
  /** Route keys (`GET /api/v1/area00/users/:id`) the analyzer must report, sorted. */
  routes: string[];
}

const WORDS = ['users', 'orders', 'invoices', 'products', 'tickets', 'teams', 'projects', 'comments', 'files', 'events', 'reports', 'accounts'];
/** Resources per area: 1,000 files give 40 areas of about 23 resources. */
const PER_AREA = 25;

/**
 * Writes a synthetic app of exactly `files` source files into `dir` (created if needed) and
 * returns what the analyzer should find in it. At least 7 files (4 shared + one area of 3).
 */
export function generateApp(dir: string, { files }: { files: number }): SyntheticApp {
  if (!Number.isInteger(files) || files < 7) throw new Error(`files must be an integer ≥ 7 (got ${files})`);
  const areas = Math.max(1, Math.round(files / PER_AREA));
  const resources = files - 4 - 2 * areas;
  const written: string[] = [];
  const routes: string[] = ['GET /health'];
  let n = 0;
  /** Alternates .js and .ts over the whole app. */
  const ext = () => (n++ % 2 === 0 ? 'ts' : 'js');
  const write = (rel: string, text: string) => {
    const abs = path.join(dir, rel);
    mkdirSync(path.dirname(abs), { recursive: true });
    writeFileSync(abs, text);
    if (rel.startsWith('src/')) written.push(abs);
  };

  write('package.json', JSON.stringify({ name: 'synthetic-api', version: '1.0.0', private: true, type: 'module', main: 'src/app.ts', dependencies: { express: '^4.21.2' } }, null, 2) + '\n');
  write('tsconfig.json', JSON.stringify({ compilerOptions: { target: 'ES2022', module: 'NodeNext', moduleResolution: 'NodeNext', allowJs: true, strict: true, outDir: 'dist' }, include: ['src'] }, null, 2) + '\n');
  n = 2; // app.ts and paths.ts below are .ts; the middleware files are one of each
  write('src/middleware/auth.js', AUTH_JS);
  write('src/middleware/validate.ts', VALIDATE_TS);

  const areaNames = Array.from({ length: areas }, (_, a) => `area${String(a).padStart(2, '0')}`);
  for (const [a, area] of areaNames.entries()) {
    const count = Math.floor(resources / areas) + (a < resources % areas ? 1 : 0);
    const slugs = Array.from({ length: count }, (_, i) => WORDS[i % WORDS.length] + (i >= WORDS.length ? Math.floor(i / WORDS.length) : ''));
    const pathsExt = ext();
    write(`src/areas/${area}/paths.${pathsExt}`, `/** Mount paths of the ${area} resources. */\nexport const R = {\n${slugs.map((s) => `  ${s}: '/${s}',`).join('\n')}\n}${pathsExt === 'ts' ? ' as const' : ''};\n`);
    const mounted: string[] = [];
    for (const [i, slug] of slugs.entries()) {
      const k = a * PER_AREA + i;
      const resource = resourceFile(slug, k, ext());
      write(`src/areas/${area}/${slug}.${resource.ext}`, resource.text);
      mounted.push(resource.namedExport ? `import { router as ${slug} } from './${slug}.js';` : `import ${slug} from './${slug}.js';`);
      for (const [method, p] of resource.routes) routes.push(`${method} /api/v1/${area}/${slug}${p === '/' ? '' : p}`);
    }
    write(`src/areas/${area}/index.${ext()}`, [
      `/** The ${area} area: one router per resource. */`,
      `import express from 'express';`,
      `import { R } from './paths.js';`,
      ...mounted,
      '',
      'const router = express.Router();',
      ...slugs.map((s) => `router.use(R.${s}, ${s});`),
      '',
      'export default router;',
      '',
    ].join('\n'));
  }

  write('src/paths.ts', [
    '/** Path constants shared by the whole app. */',
    `export const API = '/api';`,
    `export const ID = '/:id';`,
    'export const PREFIX = {',
    '  api: API,',
    '  v1: `${API}/v1`,',
    '} as const;',
    'export const AREA = {',
    ...areaNames.map((a) => `  ${a}: '/${a}',`),
    '} as const;',
    '',
  ].join('\n'));
  write('src/app.ts', [
    `/** Entry: mounts every area router under ${'${PREFIX.v1}'}. */`,
    `import express, { type NextFunction, type Request, type Response } from 'express';`,
    `import { AREA, PREFIX } from './paths.js';`,
    ...areaNames.map((a) => `import ${a} from './areas/${a}/index.js';`),
    '',
    'const app = express();',
    `app.disable('x-powered-by');`,
    'app.use(express.json());',
    `app.get('/health', (req: Request, res: Response) => res.json({ ok: true }));`,
    ...areaNames.map((a, i) => (i % 2 === 0 ? `app.use(PREFIX.v1 + AREA.${a}, ${a});` : `app.use(\`\${PREFIX.v1}\${AREA.${a}}\`, ${a});`)),
    '',
    'app.use((err: Error & { status?: number }, req: Request, res: Response, next: NextFunction) => {',
    '  res.status(err.status ?? 500).json({ error: err.message });',
    '});',
    '',
    'app.listen(Number(process.env.PORT ?? 3000));',
    'export default app;',
    '',
  ].join('\n'));
  return { dir, files: written.sort(), routes: routes.sort() };
}

/** One resource router file: its text, extension, routes (method, path relative to its mount). */
function resourceFile(slug: string, k: number, ext: string): { ext: string; text: string; routes: [string, string][]; namedExport: boolean } {
  const ts = ext === 'ts';
  const T = ts ? `${slug[0].toUpperCase()}${slug.slice(1)}Record` : '';
  const t = (annotation: string) => (ts ? annotation : '');
  const handlers = 4 + (k % 3); // 4, 5 or 6
  const chained = k % 4 === 3; // router.route(ID).get(…).put(…)
  const namedExport = k % 5 === 4;
  const routes: [string, string][] = [['GET', '/'], ['GET', '/:id'], ['POST', '/'], ['PUT', '/:id']];
  const reg = [
    `router.get('/', paginate, list);`,
    ...(chained ? [`router.route(ID).get(auth, load, show).put(auth, load, update);`] : [`router.get(ID, auth, load, show);`, `router.put(ID, auth, load, validate(['name']), update);`]),
    `router.post('/', auth, validate(['name']), create);`,
  ];
  if (handlers >= 5) {
    routes.push(['DELETE', '/:id']);
    reg.push(`router.delete(ID, auth, requireRole('admin'), load, remove);`);
  }
  if (handlers >= 6) {
    routes.push(['GET', '/:id/history']);
    reg.push(`router.get(\`\${ID}/history\`, auth, load, history);`);
  }
  const req = t(': Request');
  const res = t(': Response');
  const text = `/**
 * ${slug}: CRUD handlers over an in-memory store (synthetic resource #${k}).
 */
import express${ts ? ', { type NextFunction, type Request, type Response }' : ''} from 'express';
import { ID } from '../../paths.js';
import { auth, requireRole } from '../../middleware/auth.js';
import { validate } from '../../middleware/validate.js';
${ts ? `
interface ${T} {
  id: string;
  name: string;
  tags: string[];
  createdAt: number;
  updatedAt: number;
}
` : ''}
const store = new Map${t(`<string, ${T}>`)}();
let nextId = ${k * 1000 + 1};

function toPublic(item${t(`: ${T}`)}) {
  return {
    id: item.id,
    name: item.name,
    tags: [...item.tags].sort(),
    createdAt: new Date(item.createdAt).toISOString(),
    updatedAt: new Date(item.updatedAt).toISOString(),
  };
}

function cleanTags(tags${t(': unknown')})${t(': string[]')} {
  if (!Array.isArray(tags)) return [];
  return tags.filter((tag) => typeof tag === 'string' && tag.length > 0).slice(0, 10);
}

function matches(item${t(`: ${T}`)}, q${t(': string')}) {
  const needle = q.trim().toLowerCase();
  if (!needle) return true;
  return item.name.toLowerCase().includes(needle) || item.tags.some((tag) => tag.toLowerCase() === needle);
}

function paginate(req${req}, res${res}, next${t(': NextFunction')}) {
  const limit = Math.min(Number(req.query.limit ?? 20), 100);
  const offset = Math.max(Number(req.query.offset ?? 0), 0);
  res.locals.page = { limit, offset };
  next();
}

function load(req${req}, res${res}, next${t(': NextFunction')}) {
  const item = store.get(req.params.id);
  if (!item) {
    res.status(404).json({ error: '${slug} ' + req.params.id + ' not found' });
    return;
  }
  res.locals.item = item;
  next();
}

async function list(req${req}, res${res}) {
  const { limit, offset } = res.locals.page;
  const q = typeof req.query.q === 'string' ? req.query.q : '';
  const found = [...store.values()].filter((item) => matches(item, q));
  res.json({ items: found.slice(offset, offset + limit).map(toPublic), total: found.length });
}

async function show(req${req}, res${res}) {
  res.json(toPublic(res.locals.item));
}

async function create(req${req}, res${res}) {
  const now = Date.now();
  const item = { id: String(nextId++), name: String(req.body.name), tags: cleanTags(req.body.tags), createdAt: now, updatedAt: now };
  store.set(item.id, item);
  res.status(201).json(toPublic(item));
}

async function update(req${req}, res${res}) {
  const item = res.locals.item${t(` as ${T}`)};
  if (typeof req.body.name === 'string') item.name = req.body.name;
  if (req.body.tags !== undefined) item.tags = cleanTags(req.body.tags);
  item.updatedAt = Date.now();
  res.json(toPublic(item));
}

async function remove(req${req}, res${res}) {
  store.delete(req.params.id);
  res.status(204).end();
}

async function history(req${req}, res${res}) {
  const item = res.locals.item${t(` as ${T}`)};
  res.json({ id: req.params.id, events: [{ at: item.createdAt, type: 'created' }, { at: item.updatedAt, type: 'updated' }] });
}

${namedExport ? 'export ' : ''}const router = express.Router();
${k % 2 === 0 ? 'router.use(express.json());\n' : ''}${reg.join('\n')}
${namedExport ? '' : '\nexport default router;\n'}`;
  return { ext, text, routes, namedExport };
}

const AUTH_JS = `/** Authentication middleware shared by every resource. */
export function auth(req, res, next) {
  const header = req.get('authorization') || '';
  if (!header.startsWith('Bearer ')) return res.status(401).json({ error: 'unauthorized' });
  req.user = { token: header.slice(7), roles: ['user'] };
  next();
}

export function requireRole(role) {
  return function requireRoleMiddleware(req, res, next) {
    if (!req.user || !req.user.roles.includes(role)) return res.status(403).json({ error: 'forbidden' });
    next();
  };
}
`;

const VALIDATE_TS = `/** Body validation shared by every resource. */
import type { NextFunction, Request, Response } from 'express';

export function validate(fields: string[]) {
  return function validateBody(req: Request, res: Response, next: NextFunction) {
    const missing = fields.filter((f) => req.body == null || req.body[f] === undefined);
    if (missing.length) return res.status(400).json({ error: 'missing ' + missing.join(', ') });
    next();
  };
}
`;
