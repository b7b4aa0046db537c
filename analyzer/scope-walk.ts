/**
 * Scope and write tests on compiler nodes, shared by usage.ts and request-hand-offs.ts: whether a
 * name at a node is another binding than a function's parameter, and whether a property access is
 * written. Syntactic: a scope walk by name, no type checker.
 */
import { SyntaxKind, ts } from 'ts-morph';
import type { Text } from './syntax.js';

/** Functions, whose parameters and body open a scope (ts-morph's isFunctionLikeDeclaration plus function expressions). */
export const FUNCTION_KINDS = new Set([SyntaxKind.ArrowFunction, SyntaxKind.Constructor, SyntaxKind.FunctionDeclaration, SyntaxKind.FunctionExpression, SyntaxKind.GetAccessor, SyntaxKind.MethodDeclaration, SyntaxKind.SetAccessor]);

/**
 * Whether `name` at `node` is another binding than `fn`'s parameter: a nested function's parameter
 * (`.then((res) => res.json())`) or a variable declared in a block or function between them
 * (`const res = await fetch(url)` in a helper). Syntactic scope walk, no type checker.
 */
export function shadowed(node: ts.Node, fn: ts.Node, name: string, text: Text): boolean {
  for (let n = node.parent; n && n !== fn; n = n.parent) {
    if (FUNCTION_KINDS.has(n.kind) && (n as ts.SignatureDeclaration).parameters.some((p) => text(p.name) === name)) return true;
    if (ts.isBlock(n) && n.statements.some((st) => ts.isVariableStatement(st) && st.declarationList.declarations.some((d) => text(d.name) === name))) return true;
  }
  return false;
}

/** Assignment operators that write the property on their left. */
const ASSIGNMENTS = new Set([SyntaxKind.EqualsToken, SyntaxKind.PlusEqualsToken, SyntaxKind.MinusEqualsToken, SyntaxKind.BarBarEqualsToken, SyntaxKind.AmpersandAmpersandEqualsToken, SyntaxKind.QuestionQuestionEqualsToken]);

/** `x.p = …`, `x.p += …`, `x.p.q = …` (a write into the object `x.p`), `delete x.p`. */
export function isWritten(pa: ts.Node): boolean {
  let node = pa;
  while ((ts.isPropertyAccessExpression(node.parent) || ts.isElementAccessExpression(node.parent)) && node.parent.expression === node) node = node.parent;
  const parent = node.parent;
  if (ts.isBinaryExpression(parent) && parent.left === node) return ASSIGNMENTS.has(parent.operatorToken.kind);
  return ts.isDeleteExpression(parent);
}
