/**
 * Which project function a call in a handler runs — `validate(req)`, `pages.send(res, …)` — so the
 * request/reply APIs used inside helpers count as the handler's own (analyzer-patterns.md §3 P52).
 * Syntactic, no type checker: a function declared in the same file, or one imported (ESM import,
 * `require`, destructured `require`, namespace member) from a module the evaluator loaded, whose
 * exports it already knows.
 */
import { Node, ts, type SourceFile } from 'ts-morph';
import type { Evaluator } from './evaluate.js';
import type { Value } from './values.js';
import { nameOf, textOf, type Text } from './syntax.js';
import { importBindingOf } from './bindings.js';

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
  const binding = importBindingOf(file, name);
  if (!binding) return undefined;
  const from = file.getFilePath();
  if (binding.imported === 'default') return pick(exportsOf(evaluator, binding.specifier, from, true), 'default', member);
  const mod = exportsOf(evaluator, binding.specifier, from);
  if (binding.imported !== '*') return pick(mod, binding.imported, member);
  // A namespace import is only a function through one of its members; a required module may be one itself.
  if (binding.kind === 'import') return member ? pick(mod, member, null) : undefined;
  return member ? pick(mod, member, null) : mod;
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
