/**
 * Handler wrappers on a moving route (issue 17). A wrapper the analyzer proved only forwards a
 * throw or a rejection to next (Handler.wrapping: `asyncHandler`, `catchAsync`, express-async-handler)
 * goes, since a Fastify route does that itself: Fastify awaits the handler and sends its rejection
 * to the error handler (lib/wrap-thenable.js), a sync throw too (lib/handle-request.js). Applied in
 * the registration (`router.get('/', asyncHandler(async (req, res) => …))`), the handler is what it
 * wraps and the call goes with the registration; applied where the handler is defined (`const list
 * = catchAsync(async (req, res) => …)`, `exports.list = catchAsync(…)`), the transform puts its
 * argument in its place — only when every route of that handler moves (settle.ts: they share the
 * handler). The wrapper's own module is left as it is. A wrapper that runs a generator written in
 * its call (co.wrap, Wrapping kind `runs-generator`) stays — where the handler is defined, or moved
 * into the plugin with it from the registration (movedHandler): what it makes is an ordinary
 * function returning a promise of the generator's end, which Fastify awaits as an async handler's
 * (lib/wrap-thenable.js), so the generator is rewritten inside it (HandlerOptions.generatorAwaited).
 * Any other wrapper keeps the route on Express, saying what it does beyond forwarding.
 */
import type { ASTPath } from 'jscodeshift';
import type { Handler, Location } from '../../analyzer/model.js';
import { pathsOfType, startsAt, type Node } from '../lib/ast.js';
import type { ParsedFile, ParsedFiles } from '../lib/parsed-files.js';
import type { Blocker } from '../model.js';
import type { RouteState } from './state.js';

/**
 * Why the wrappers of `handler` cannot go, or null when each only forwards and is applied by a
 * call of its own (or it has none). Read from the inventory (Handler.wrapping).
 */
export function wrapperBlocker(handler: Handler): string | null {
  if (!handler.wrappers.length) return null;
  const wrapping = handler.wrapping ?? [];
  const more = wrapping.find((w) => w.kind === 'other');
  if (more) return `its handler is wrapped in ${more.name}, which ${more.beyond}; only a wrapper that just passes rejections to next can go (a Fastify route does that itself)`;
  if (wrapping.length !== handler.wrappers.length) return `its handler is wrapped in ${handler.wrappers.join(', ')}, which calls it with Express's (req, res, next)`;
  const generator = wrapping.find((w) => w.kind === 'runs-generator');
  if (generator && wrapping.length > 1) return `its handler is a generator run by ${generator.name} inside ${wrapping.filter((w) => w !== generator).map((w) => w.name).join(', ')}; the codemod keeps ${generator.name} only where it is the one wrapper`;
  const promise = wrapping.find((w) => w.kind === 'forwards-promise');
  // `fn(req, res, next).catch(next)`: Express hands a sync handler's TypeError (no .catch on undefined) to next.
  if (promise && !handler.async) return `its handler is wrapped in ${promise.name}, which calls .catch on what the handler returns, and the handler is not async: Express answered with the TypeError that gives, Fastify would not`;
  const unplaced = wrapping.find((w) => !w.applied);
  if (unplaced) return `its handler is wrapped in ${unplaced.name} where no call of it with the handler as its only argument was found, so the codemod cannot unwrap it`;
  return null;
}

/**
 * The handler argument of the registration with the wrappers applied in it peeled off (the
 * function or reference they wrap), and the outermost call applying one where the handler is
 * defined (in its module, for the handler's placement and other uses: it stands where the handler
 * stands); the unwraps go to `state.unwraps`. Wrappers that cannot go (`wrapperBlocker`) are left.
 */
export function unwrapHandler(state: RouteState, parsed: ParsedFiles, registration: { file: ParsedFile; handler: ASTPath<Node>; lines: [number, number] }, block: (b: Blocker) => void): { handler: ASTPath<Node>; holder: ASTPath<Node> | null } {
  const { route } = state;
  let handler = registration.handler;
  let holder: ASTPath<Node> | null = null;
  if (wrapperBlocker(route.handler)) return { handler, holder };
  for (const w of route.handler.wrapping ?? []) {
    const at = w.applied!;
    const inRegistration = at.file === route.registration.file && at.line >= registration.lines[0] && at.line <= registration.lines[1];
    const file = inRegistration ? registration.file : parsed(at.file);
    const call = inRegistration ? (appliedAt(handler, at, registration.file.source) ? handler : null) : file ? callAt(file, at) : null;
    if (!file || !call) {
      block({ code: 'route-handler-wrapped', reason: `its handler's wrapper ${w.name} was not found where the analysis put it (${at.file}:${at.line})` });
      return { handler: registration.handler, holder: null };
    }
    if (w.kind === 'runs-generator') {
      // It stays: in the registration it moves into the plugin with the generator (movedHandler);
      // where the handler is defined it stands where the handler stands, and the registration refers to what it made.
      const written = call.node.arguments[0]?.type === 'FunctionExpression';
      if (!written) block({ code: 'route-handler-wrapped', reason: `its handler is a generator run by ${w.name}, which the codemod keeps only where it is applied to a generator written in its call (\`${w.name.split(' ')[0]}(function* (req, res) { … })\`), not one declared apart` });
      else if (inRegistration) handler = call.get('arguments', 0);
      else holder = call;
      continue;
    }
    state.unwraps.push({ file: at.file, call: inRegistration ? null : call, local: rootName(call.node.callee) });
    if (inRegistration) handler = call.get('arguments', 0);
    else if (!holder && encloses(call.node, route.handler.definition, at.file)) holder = call;
  }
  return { handler, holder };
}

/**
 * Whether the call `node` (in `file`) holds the handler's definition: the handler is written in it
 * (`catchAsync(async (req, res) => …)`), so the call stands where the handler stands. A handler
 * declared apart (`wrap(show)`) keeps its own binding, and its use in the call counts as another use.
 */
function encloses(node: Node, definition: Location | undefined, file: string): boolean {
  // By lines: a function declared apart does not share a line with the call that wraps it.
  return !!definition && definition.file === file && !!node.loc && definition.line >= node.loc.start.line && definition.line <= node.loc.end.line;
}

/** Whether `path` is a call with one argument starting at `at`. */
function appliedAt(path: ASTPath<Node>, at: Location, source: string): boolean {
  return path.node.type === 'CallExpression' && path.node.arguments.length === 1 && startsAt(path.node, at, source);
}

/** The call with one argument starting at `at` in `file`, the innermost when several start there (`wrap(fn).cacheFor(60)`). */
function callAt(file: ParsedFile, at: Location): ASTPath<Node> | null {
  const calls = pathsOfType(file.j, file.root, 'CallExpression').filter((p) => appliedAt(p, at, file.source));
  return calls.reduce<ASTPath<Node> | null>((inner, p) => (!inner || p.node.end < inner.node.end ? p : inner), null);
}

/** The identifier a callee starts with (`asyncHandler`, `utils` of `utils.asyncHandler`), or null. */
function rootName(callee: Node): string | null {
  if (callee.type === 'Identifier') return callee.name;
  if (callee.type === 'MemberExpression' && !callee.computed) return rootName(callee.object);
  return null;
}

/** Whether the handler of a route runs as a generator that a wrapper which stays turns into a promise (co.wrap; Wrapping kind `runs-generator`). */
export function runsAsGenerator(handler: Handler): boolean {
  return !!handler.wrapping?.some((w) => w.kind === 'runs-generator');
}

/**
 * What moves into the plugin for a handler written in the registration: the function, or the
 * co.wrap call around a generator (`options.generatorAwaited`), which stays with it.
 */
export function movedHandler(fn: ASTPath<Node>, options: { generatorAwaited?: boolean }): ASTPath<Node> {
  return options.generatorAwaited && fn.parent?.node.type === 'CallExpression' && fn.parent.node.arguments[0] === fn.node ? fn.parent : fn;
}
