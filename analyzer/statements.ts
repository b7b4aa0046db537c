/**
 * The statement that holds a registration (model.ts StatementSpan): what a codemod removes,
 * moves or keeps when it takes a registration out of the Express app. Read from the compiler
 * nodes (no wrappers).
 */
import { ts, type Node } from 'ts-morph';
import type { Location, StatementSpan } from './model.js';
import { endOf, lineAndColumn } from './position.js';

/** Kinds that are statements (declarations included: a registration in a class field initialiser sits in its class). */
const STATEMENTS = new Set([
  ts.SyntaxKind.VariableStatement, ts.SyntaxKind.ExpressionStatement, ts.SyntaxKind.IfStatement, ts.SyntaxKind.DoStatement, ts.SyntaxKind.WhileStatement,
  ts.SyntaxKind.ForStatement, ts.SyntaxKind.ForInStatement, ts.SyntaxKind.ForOfStatement, ts.SyntaxKind.ReturnStatement, ts.SyntaxKind.WithStatement,
  ts.SyntaxKind.SwitchStatement, ts.SyntaxKind.LabeledStatement, ts.SyntaxKind.ThrowStatement, ts.SyntaxKind.TryStatement, ts.SyntaxKind.FunctionDeclaration,
  ts.SyntaxKind.ClassDeclaration, ts.SyntaxKind.EnumDeclaration, ts.SyntaxKind.ExportAssignment, ts.SyntaxKind.ExportDeclaration, ts.SyntaxKind.ModuleDeclaration,
]);

/**
 * The smallest statement containing registration call `site`. For a route chain
 * (`app.route(p).get(…).post(…)`, `site` being the `route(p)` call) the registration is the whole
 * chain. `own` when the statement is an expression statement whose expression is that call (or
 * chain) on a plain reference (`app`, `this.router`): removing it removes this registration and
 * nothing else. Undefined when no statement holds `site`.
 */
function statementSpan(site: Node, routeChain = false): StatementSpan | undefined {
  const call = site.compilerNode;
  let statement: ts.Node | undefined = call.parent;
  while (statement && !STATEMENTS.has(statement.kind)) statement = statement.parent;
  if (!statement) return undefined;
  const sf = call.getSourceFile();
  const registration = routeChain ? chainTop(call) : call;
  const own = ts.isExpressionStatement(statement) && skipParens(statement.expression) === registration && onReference(call);
  return { start: lineAndColumn(sf, statement.getStart(sf)), end: endOf(statement), topLevel: ts.isSourceFile(statement.parent), own };
}

/** The outermost call of a method chain starting at `call` (`.get(a).post(b)` after `route(p)`). */
function chainTop(call: ts.Node): ts.Node {
  let top = call;
  while (ts.isPropertyAccessExpression(top.parent) && top.parent.expression === top && ts.isCallExpression(top.parent.parent) && top.parent.parent.expression === top.parent) top = top.parent.parent;
  return top;
}

/** Whether the registration call is made on a plain reference: `app.get(…)`, `this.router.use(…)`, not `app.use(a).use(b)`. */
function onReference(call: ts.Node): boolean {
  if (!ts.isCallExpression(call) || !ts.isPropertyAccessExpression(call.expression)) return false;
  let receiver: ts.Expression = call.expression.expression;
  while (ts.isPropertyAccessExpression(receiver)) receiver = receiver.expression;
  return ts.isIdentifier(receiver) || receiver.kind === ts.SyntaxKind.ThisKeyword;
}

function skipParens(e: ts.Expression): ts.Expression {
  return ts.isParenthesizedExpression(e) ? skipParens(e.expression) : e;
}

/** `{ statement }` for a record's spread, or `{}` when no statement holds `site`. */
export function statementOf(site: Node, routeChain = false): { statement?: StatementSpan } {
  const statement = statementSpan(site, routeChain);
  return statement ? { statement } : {};
}

/**
 * `{ element }` for a handler record's spread when the handler's node `site` is an element of an
 * array literal (model.ts ErrorHandler.element: a factory's `return [notFound, errorHandler]`),
 * or `{}` when it is written anywhere else (an argument of the registration itself).
 */
export function elementOf(site: Node, locate: (n: Node) => Location): { element?: Location } {
  return ts.isArrayLiteralExpression(site.compilerNode.parent) ? { element: locate(site) } : {};
}
