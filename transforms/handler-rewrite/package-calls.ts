/**
 * Calls that hand a moved handler's `req` to a package function that takes Express's request
 * (rules/catalogue/middleware.ts `takesRequest`): express-validator's `validationResult(req)`,
 * `matchedData(req)`, `check('email').isEmail().run(req)`. Those functions read what the package's
 * middleware stored on the request, or run its validators on it; on a moved route that middleware ran
 * on Express's own request (in the bridge, or through the `expressMiddleware` adapter), which the
 * handler reaches as `request.raw` — so `validationResult(request.raw)` reads exactly what
 * `validationResult(req)` read in Express. The package is known by the import that binds the callee
 * (ESM import, `require`, destructured `require`, a namespace's member). Nothing here edits.
 */
import type { ASTPath } from 'jscodeshift';
import { middlewareFor } from '../../rules/catalogue/middleware.js';
import type { Node } from '../lib/ast.js';
import { memoOn } from '../lib/memo.js';
import { lookup, programOf } from './ast.js';

/** A package function the request is handed to. */
export interface PackageRequestCall {
  /** The package, as imported (`express-validator`). */
  package: string;
  /** The call, for messages: `validationResult(…)`, `check(…).run(…)`. */
  callee: string;
  /** It reads the route parameters (`req.params`), which Express's request lacks on a route Fastify matched. */
  readsParams: boolean;
}

/** When the reference `ref` of `req` is the first argument of a catalogued package function, that function; else null. */
export function packageRequestCall(ref: ASTPath<Node>): PackageRequestCall | null {
  const call = ref.parent?.node;
  if (call?.type !== 'CallExpression' || call.arguments[0] !== ref.node) return null;
  const callee: Node = call.callee;
  const direct = exportCalled(ref, callee);
  const calls = direct && middlewareFor(direct.package, direct.package)?.takesRequest?.calls;
  if (direct && calls?.includes(direct.name)) return { package: direct.package, callee: `${direct.name}(…)`, readsParams: false };
  // `check('email').isEmail().run(req)`: the method of a chain whose first call is one of the package's builders.
  if (callee.type !== 'MemberExpression' || callee.computed || callee.property.type !== 'Identifier') return null;
  let builder: Node = callee.object;
  while (builder.type === 'CallExpression' && builder.callee.type === 'MemberExpression' && !builder.callee.computed && builder.callee.object.type === 'CallExpression') builder = builder.callee.object;
  const built = builder.type === 'CallExpression' ? exportCalled(ref, builder.callee) : null;
  const runs = built && middlewareFor(built.package, built.package)?.takesRequest?.runs;
  if (!built || !runs || runs.method !== callee.property.name || !runs.exports.includes(built.name)) return null;
  return { package: built.package, callee: `${built.name}(…).${runs.method}(…)`, readsParams: runs.readParams.includes(built.name) };
}

/** The package export a callee names (`validationResult`, `ev.validationResult`), by the module-level import that binds it. */
function exportCalled(ref: ASTPath<Node>, callee: Node): { package: string; name: string } | null {
  const bound = (name: string) => {
    const scope = lookup(ref.scope, name);
    return scope && scope.isGlobal ? importsOf(programOf(ref)).get(name) ?? null : null;
  };
  if (callee.type === 'Identifier') {
    const binding = bound(callee.name);
    return binding && binding.imported !== '*' ? { package: binding.package, name: binding.imported } : null;
  }
  if (callee.type === 'MemberExpression' && !callee.computed && callee.object.type === 'Identifier' && callee.property.type === 'Identifier') {
    const binding = bound(callee.object.name);
    return binding?.imported === '*' ? { package: binding.package, name: callee.property.name } : null;
  }
  return null;
}

/** A module-level binding of a package export: `imported` the export's name, `*` for the module itself (namespace or `require`). */
interface ImportBinding {
  package: string;
  imported: string;
}

/** The bare-specifier imports of a program by local name (relative modules are the project's, not packages). */
function importsOf(program: ASTPath<Node>): Map<string, ImportBinding> {
  return memoOn(program.node, 'package-imports', () => {
    const out = new Map<string, ImportBinding>();
    const isPackage = (s: unknown): s is string => typeof s === 'string' && !s.startsWith('.') && !s.startsWith('/');
    for (const statement of program.node.body as Node[]) {
      if (statement.type === 'ImportDeclaration' && isPackage(statement.source.value)) {
        for (const s of statement.specifiers ?? []) {
          const imported = s.type === 'ImportSpecifier' ? s.imported.name : s.type === 'ImportDefaultSpecifier' ? 'default' : '*';
          out.set(s.local.name, { package: statement.source.value, imported });
        }
      }
      if (statement.type !== 'VariableDeclaration') continue;
      for (const d of statement.declarations as Node[]) {
        const init = d.init;
        const from = init?.type === 'CallExpression' && init.callee.type === 'Identifier' && init.callee.name === 'require' ? init.arguments[0]?.value : undefined;
        if (!isPackage(from)) continue;
        if (d.id.type === 'Identifier') out.set(d.id.name, { package: from, imported: '*' });
        else if (d.id.type === 'ObjectPattern') {
          for (const p of d.id.properties) if (p.type === 'ObjectProperty' && !p.computed && p.key.type === 'Identifier' && p.value.type === 'Identifier') out.set(p.value.name, { package: from, imported: p.key.name });
        }
      }
    }
    return out;
  });
}
