/**
 * Which project function a call in a handler runs — `validate(req)`, `pages.send(res, …)` — so the
 * request/reply APIs used inside helpers count as the handler's own (analyzer-patterns.md §3 P52).
 * Syntactic, no type checker: a function declared in the same file, or one imported (ESM import,
 * `require`, destructured `require`, namespace member) from a module the evaluator loaded, whose
 * exports it already knows.
 */
import { Node, SyntaxKind, ts, type SourceFile } from 'ts-morph';
import type { Evaluator } from './evaluate.js';
import type { Value } from './values.js';
import { nameOf, textOf, type Text } from './syntax.js';

/** A function that takes parameters (declaration, expression, arrow or method). */
export type FunctionNode = Node & { getParameters(): Node[] };

/** The function a call in `file` runs, or undefined when it is not a project function the analyzer knows. */
export type HelperLookup = (call: ts.CallExpression, file: SourceFile) => FunctionNode | undefined;

/**
 * Builds the lookup over the modules `evaluator` loaded. Results are cached per file and callee
 * (`validate`, `pages.send`): handlers of one file call the same helpers, and each lookup reads
 * the file's declarations and imports.
 */
export function helperLookup(evaluator: Evaluator): HelperLookup {
  const known = new Map<SourceFile, Map<string, FunctionNode | undefined>>();
  return (call, file) => {
    const callee = calleeName(call.expression, textOf(file));
    if (!callee) return undefined;
    let inFile = known.get(file);
    if (!inFile) known.set(file, (inFile = new Map()));
    const key = callee.join('.');
    if (!inFile.has(key)) inFile.set(key, calleeFunction(evaluator, file, callee));
    return inFile.get(key);
  };
}

/** `validate` → [validate], `pages.send` → [pages, send]; other callees are not followed. */
function calleeName(callee: ts.Expression, text: Text): [string] | [string, string] | undefined {
  if (ts.isIdentifier(callee)) return [text(callee)];
  if (ts.isPropertyAccessExpression(callee) && ts.isIdentifier(callee.expression)) return [text(callee.expression), text(callee.name)];
  return undefined;
}

function calleeFunction(evaluator: Evaluator, file: SourceFile, [name, member]: [string] | [string, string]): FunctionNode | undefined {
  return asFunction(member === undefined ? localFunction(file, name) ?? importedValue(evaluator, file, name, null) : importedValue(evaluator, file, name, member));
}

/** `function name() {}` or `const name = (…) => …` at the top level of `file`. */
function localFunction(file: SourceFile, name: string): Node | undefined {
  // file.getFunction(name), with the name tested first: its isAmbient() check on every function was most of the lookup.
  const fn = file.getStatements().find((st) => Node.isFunctionDeclaration(st) && nameOf(st) === name && (st.isAmbient() || st.isImplementation()));
  if (fn) return fn;
  const init = file.getVariableDeclaration(name)?.getInitializer();
  return init && (Node.isArrowFunction(init) || Node.isFunctionExpression(init)) ? init : undefined;
}

/**
 * The value `name` (or its `member`) is bound to by an import or `require` in `file`, read from
 * the exports of the module it names, when the evaluator loaded that module.
 */
function importedValue(evaluator: Evaluator, file: SourceFile, name: string, member: string | null): Value | undefined {
  const from = file.getFilePath();
  for (const imp of file.getImportDeclarations()) {
    const spec = imp.getModuleSpecifierValue();
    const named = imp.getNamedImports().find((n) => (n.getAliasNode()?.getText() ?? n.getName()) === name);
    if (named) return pick(exportsOf(evaluator, spec, from), named.getName(), member);
    if (imp.getNamespaceImport()?.getText() === name && member) return pick(exportsOf(evaluator, spec, from), member, null);
    if (imp.getDefaultImport()?.getText() === name) return pick(exportsOf(evaluator, spec, from, true), 'default', member);
  }
  for (const decl of file.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
    const init = decl.getInitializer();
    const arg = init && Node.isCallExpression(init) && init.getExpression().getText() === 'require' ? init.getArguments()[0] : undefined;
    if (!arg || !Node.isStringLiteral(arg)) continue;
    const nameNode = decl.getNameNode();
    if (Node.isObjectBindingPattern(nameNode)) {
      const el = nameNode.getElements().find((e) => e.getName() === name);
      if (el) return pick(exportsOf(evaluator, arg.getLiteralValue(), from), el.getPropertyNameNode()?.getText() ?? name, member);
    } else if (nameNode.getText() === name) {
      const mod = exportsOf(evaluator, arg.getLiteralValue(), from);
      return member ? pick(mod, member, null) : mod;
    }
  }
  return undefined;
}

/** The exports of a loaded module: `module.exports` when it was replaced, else the exports object (ESM `default` when asked). */
function exportsOf(evaluator: Evaluator, specifier: string, from: string, asDefault = false): Value | undefined {
  const resolved = evaluator.ctx.resolver.resolve(specifier, from);
  if (resolved.kind !== 'file') return undefined;
  const record = evaluator.modules.get(resolved.path);
  if (!record) return undefined;
  if (record.replaced) return asDefault ? { k: 'object', props: new Map([['default', record.replaced]]) } : record.replaced;
  return record.exports;
}

function pick(holder: Value | undefined, name: string, member: string | null): Value | undefined {
  const v = holder?.k === 'object' ? holder.props.get(name) : undefined;
  return member ? (v?.k === 'object' ? v.props.get(member) : undefined) : v;
}

function asFunction(v: Value | Node | undefined): FunctionNode | undefined {
  const node = v instanceof Node ? v : v?.k === 'fn' ? v.node : undefined;
  return node && 'getParameters' in node ? (node as FunctionNode) : undefined;
}
