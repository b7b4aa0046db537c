/**
 * The edit that has Fastify parse the listed routes' bodies (`plugins` stage, issue 18 item 2;
 * fastify-bodies.ts says with what, bodies-template.ts writes the code): in buildFastify's plugin
 * around the moved routes, `parseBodiesLikeExpress(instance, expressFree, [ … ])` first, so its
 * content-type parsers and hooks serve every moved route; movedRoutes loses its own
 * `removeAllContentTypeParsers()` and `addContentTypeParser('*', bodyLeftToExpress)`, which would
 * hide them (the catch-all it added, leaving bodies unread for Express, is the new parsers' too);
 * the functions are added after `function routeKey`, with their imports.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';
import { ensureImported, removeUnusedImport } from '../lib/imports.js';
import { restyle, type CodeStyle } from '../lib/style.js';
import { BODY_FUNCTIONS, bodyFunctionLines, PARSE_BODIES, parseBodiesCallLines } from './bodies-template.js';
import { buildFastifyOf } from './build-fastify.js';
import { EXPRESS_FREE, ROUTE_KEY } from './express-hook-template.js';
import type { FastifyBodies } from './fastify-bodies.js';
import { calls, declares, printed, statements } from './hand-over.js';

/** The sentence of movedRoutes' comment (moved-routes.ts) that said who parses the bodies, and what it says once Fastify does. */
const STALE_BODIES = /Their bodies\n \* are parsed by the app's Express body parsers in the bridge, in the app's middleware order, and\n \* handed to their handlers as request\.body, until the plugins stage moves body parsing to Fastify\./;
const FASTIFY_BODIES = [
  'Fastify parses',
  " * the bodies of those that run no Express code (parseBodiesLikeExpress); the app's Express body parsers",
  " * parse the others' in the bridge, in the app's middleware order, handed to their handlers as request.body.",
].join('\n');

/** What parseBodiesInFastify writes: the parsers, and how the module imports. */
export interface ParseBodiesEntry {
  bodies: Exclude<FastifyBodies, { refuse: string }>;
  typescript: boolean;
  module: 'esm' | 'commonjs';
}

/**
 * Has Fastify parse the listed routes' bodies in the module parsed in `root` (see the module
 * comment). No change when it does so already, with these parsers.
 * @returns whether the module changed.
 * @throws Error as buildFastifyOf, or when buildFastify lists no routes (`const expressFree`), has
 *   no plugin `expressMiddlewareFirst`, has no `function routeKey` (the express-free step has not
 *   run on it), or binds `http`, `zlib`, `Readable`, `Transform`, `qs` or `querystring` to something else
 */
export function parseBodiesInFastify(j: JSCodeshift, root: Collection, entry: ParseBodiesEntry, style: CodeStyle): boolean {
  const build = buildFastifyOf(j, root, 'parse the bodies of the moved routes');
  if (!build.body.some((s) => declares(s, EXPRESS_FREE))) throw new Error(`buildFastify lists no routes that run no Express code (const ${EXPRESS_FREE})`);
  const plugin = root.find(j.FunctionExpression, { id: { name: 'expressMiddlewareFirst' } }).paths()[0];
  if (!plugin) throw new Error('buildFastify has no plugin expressMiddlewareFirst around the moved routes');
  const text = (lines: string[]) => restyle(lines, style).replace(/\s+$/, '');
  const { bodies } = entry;
  let changed = false;
  // The imports first: a name they take must be free before the functions use it.
  const modules: Array<[string, string, 'default' | 'named']> = [
    ['http', 'node:http', 'default'],
    ['zlib', 'node:zlib', 'default'],
    ['Readable', 'node:stream', 'named'],
    ['Transform', 'node:stream', 'named'],
    ...(bodies.uses.qs ? [['qs', 'qs', 'default'] as [string, string, 'default']] : []),
    ...(bodies.uses.querystring ? [['querystring', 'node:querystring', 'default'] as [string, string, 'default']] : []),
  ];
  for (const [local, specifier, kind] of modules) changed = ensureImported(j, root, { local, specifier, kind, typescript: entry.typescript, module: entry.module }, style.quote, 'the body parsers') || changed;

  const body: Node[] = plugin.node.body.body;
  const call = statements(j, text(parseBodiesCallLines((plugin.node.params[0] as Node).name, EXPRESS_FREE, bodies.parsers, bodies.versions.join(', '))));
  const current = body.filter((s) => calls(s, PARSE_BODIES));
  if (printed(j, current) !== printed(j, call)) {
    plugin.node.body.body = [...call, ...body.filter((s) => !current.includes(s))];
    changed = true;
  }

  const moved = root.find(j.FunctionDeclaration, { id: { name: 'movedRoutes' } }).paths()[0]?.node;
  const hiding = (s: Node) => /\.(removeAllContentTypeParsers\(\)|addContentTypeParser\((['"])\*\2, bodyLeftToExpress\w*\))/.test(j(s).toSource());
  if (moved?.body.body.some(hiding)) {
    const parser: Node | undefined = moved.body.body.find((s: Node) => hiding(s) && /bodyLeftToExpress/.test(j(s).toSource()));
    moved.body.body = moved.body.body.filter((s: Node) => !hiding(s));
    if (parser) removeUnusedImport(j, root, parser.expression.arguments[1].name);
    moved.comments = (moved.comments ?? []).map((c: Node) => (c.leading && STALE_BODIES.test(c.value) ? j.commentBlock(c.value.replace(STALE_BODIES, FASTIFY_BODIES), true, false) : c));
    changed = true;
  }

  const functions = statements(j, text(bodyFunctionLines(entry.typescript, bodies.uses)));
  const program: Node[] = root.find(j.Program).paths()[0].node.body;
  const names = new Set<string>([...BODY_FUNCTIONS, 'BodyParser']);
  const existing = program.filter((s) => names.has(s.id?.name));
  if (printed(j, existing) !== printed(j, functions)) {
    const at = program.findIndex((s) => s.type === 'FunctionDeclaration' && s.id.name === ROUTE_KEY);
    if (at < 0) throw new Error(`the generated module has no function ${ROUTE_KEY} for ${PARSE_BODIES} to go after`);
    root.find(j.Program).paths()[0].node.body = program.filter((s) => !existing.includes(s));
    const after = root.find(j.Program).paths()[0].node.body.findIndex((s: Node) => s.type === 'FunctionDeclaration' && s.id.name === ROUTE_KEY);
    root.find(j.Program).paths()[0].node.body.splice(after + 1, 0, ...functions);
    changed = true;
  }

  return changed;
}
