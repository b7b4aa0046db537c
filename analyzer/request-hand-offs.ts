/**
 * Where a handler hands its `req` on as a value to a project function, and what that function
 * does with it (issue 17): `sendMail({ mailOptions, req })` with `exports.sendMail = (settings) =>
 * { … settings.req.flash('info', msg) … }`, `audit(req)`, `const mail = { req }; send(mail)`. A
 * moved route can hand such a function Express's own request (`request.raw` after the
 * @fastify/express bridge) when the function only reads members that Express's request holds there
 * as it held them on the Express route; the routes stage decides that from the members recorded
 * here. Followed: `req` as an argument, or as a property of an object literal that is an argument
 * or a `const` only ever passed as an argument; in the callee (found by helpers.ts), the parameter
 * at that position read as `p.<member>` (or `p.<key>.<member>` / `{ <key> }` for an object). Any
 * other use there (handed on again, returned, stored, spread) makes the record `opaque`: what it
 * reads is not known. Syntactic, as usage.ts: names with a scope walk, no type checker.
 */
import { ts } from 'ts-morph';
import type { FunctionNode, HelperLookup } from './helpers.js';
import type { Location, RequestHandOff } from './model.js';
import { descendants, textOf, type Text } from './syntax.js';
import { isWritten, shadowed } from './scope-walk.js';

/** Where a node starts (usage.ts's Locate). */
type Locate = (node: ts.Node) => Location;

/** How deep helpers that take `req` directly are followed for hand-offs of their own (usage.ts's HELPER_DEPTH). */
const DEPTH = 3;

/** A call that receives the request: the call, the argument position, and the property of an object argument that holds it (null: the argument is the request). */
interface Carrier {
  call: ts.CallExpression;
  index: number;
  key: string | null;
}

/**
 * The hand-offs of parameter `p` of `fn` (the handler's `req`) to project functions, and those of
 * the helpers `fn` passes `req` to directly (`sendCode(email, req)`: its own `sendMail({ req })`),
 * sorted by place. A call whose callee the lookup does not find is left out (the routes stage then
 * refuses the value use as before).
 */
export function requestHandOffs(fn: FunctionNode, p: ts.ParameterDeclaration, locate: Locate, helpers: HelperLookup, depth = DEPTH, seen: Set<ts.Node> = new Set()): RequestHandOff[] {
  if (depth === 0 || !ts.isIdentifier(p.name) || seen.has(fn.compilerNode)) return [];
  const text = textOf(fn);
  const file = fn.getSourceFile();
  const out: RequestHandOff[] = [];
  for (const ref of referencesIn(fn.compilerNode, text(p.name), text, p.name)) {
    for (const carrier of carriersOf(ref, text)) {
      const callee = helpers(carrier.call, file);
      if (!callee) continue;
      const record = { location: locate(ref), callee: text(carrier.call.expression), definition: locate(callee.compilerNode), ...readsOf(callee, carrier, textOf(callee), locate) };
      if (carrier.key === null) {
        // A helper taking `req` itself (usage.ts follows its reads): its own hand-offs count too.
        const param = (callee.compilerNode as ts.SignatureDeclaration).parameters[carrier.index];
        out.push(...requestHandOffs(callee, param, locate, helpers, depth - 1, new Set([...seen, fn.compilerNode])));
      }
      out.push(record);
    }
  }
  return out.sort((a, b) => a.location.file.localeCompare(b.location.file) || a.location.line - b.location.line || a.location.column - b.location.column);
}

/** References of `name` in `root` (not the declaration `own`, not a property name, not shadowed). */
function referencesIn(root: ts.Node, name: string, text: Text, own: ts.Node | null): ts.Identifier[] {
  return descendants(root, (c): c is ts.Identifier => ts.isIdentifier(c) && c.text === name).filter((id) => {
    if (id === own) return false;
    const parent = id.parent;
    if ((ts.isPropertyAccessExpression(parent) && parent.name === id) || (ts.isPropertyAssignment(parent) && parent.name === id) || (ts.isVariableDeclaration(parent) && parent.name === id) || ts.isParameter(parent) || ts.isBindingElement(parent)) return false;
    return !shadowed(id, root, name, text);
  });
}

/** The calls `ref` reaches as a value: an argument; a property of an object literal argument; a property of a `const` object only ever passed as an argument. */
function carriersOf(ref: ts.Identifier, text: Text): Carrier[] {
  const parent = ref.parent;
  if (ts.isCallExpression(parent) && parent.arguments.includes(ref)) return [{ call: parent, index: parent.arguments.indexOf(ref), key: null }];
  const property = ts.isShorthandPropertyAssignment(parent) && parent.name === ref ? parent : ts.isPropertyAssignment(parent) && parent.initializer === ref ? parent : null;
  const key = property && (ts.isIdentifier(property.name) || ts.isStringLiteral(property.name)) ? property.name.text : null;
  const object = property?.parent;
  if (!key || !object || !ts.isObjectLiteralExpression(object)) return [];
  const holder = object.parent;
  if (ts.isCallExpression(holder) && holder.arguments.includes(object)) return [{ call: holder, index: holder.arguments.indexOf(object), key }];
  // `const mailSettings = { …, req }; return sendMail(mailSettings);`
  if (!ts.isVariableDeclaration(holder) || holder.initializer !== object || !ts.isIdentifier(holder.name) || !(holder.parent.flags & ts.NodeFlags.Const)) return [];
  // Its references in the block that declares it (shadowed() stops below that block).
  const scope = holder.parent.parent.parent;
  if (!ts.isBlock(scope)) return [];
  const uses = referencesIn(scope, holder.name.text, text, holder.name);
  const calls = uses.map((u) => (ts.isCallExpression(u.parent) && u.parent.arguments.includes(u) ? { call: u.parent, index: u.parent.arguments.indexOf(u), key } : null));
  return calls.every((c) => c !== null) ? (calls as Carrier[]) : [];
}

/** What the callee does with the request it receives through `carrier`: the members it reads, or why that is not known. */
function readsOf(callee: FunctionNode, carrier: Carrier, text: Text, locate: Locate): Pick<RequestHandOff, 'reads' | 'opaque'> {
  const node = callee.compilerNode as ts.SignatureDeclaration;
  const param = node.parameters[carrier.index];
  if (!param) return { reads: [], opaque: 'takes no parameter at that position' };
  // `arguments[0]` reaches the request past the parameter.
  if (descendants(node, (c): c is ts.Identifier => ts.isIdentifier(c) && c.text === 'arguments').length) return { reads: [], opaque: 'reads `arguments`' };
  if (carrier.key === null) return ts.isIdentifier(param.name) ? memberReads(node, param.name.text, text, locate, param.name) : { reads: [], opaque: 'destructures the parameter that receives it' };
  if (ts.isObjectBindingPattern(param.name)) {
    const element = param.name.elements.find((e) => text(e.propertyName ?? e.name) === carrier.key);
    if (param.name.elements.some((e) => e.dotDotDotToken)) return { reads: [], opaque: 'gathers the object that holds it with `...`' };
    return element && ts.isIdentifier(element.name) && !element.initializer ? memberReads(node, element.name.text, text, locate, element.name) : { reads: [], opaque: 'destructures the object that holds it into something other than a name' };
  }
  if (!ts.isIdentifier(param.name)) return { reads: [], opaque: 'destructures the parameter that receives it' };
  // `settings.req.flash(…)`: every use of the holder reads a property; those of `key` read a member of the request.
  const reads: RequestHandOff['reads'] = [];
  for (const ref of referencesIn(node, param.name.text, text, param.name)) {
    const access = ref.parent;
    if (!ts.isPropertyAccessExpression(access) || access.expression !== ref) return { reads: [], opaque: `uses the object that holds it as a value (\`${snippet(access, text)}\`)` };
    if (access.name.text !== carrier.key) continue;
    if (isWritten(access)) return { reads: [], opaque: `replaces it (\`${snippet(access.parent, text)}\`)` };
    const read = memberRead(access, text, locate);
    if ('opaque' in read) return { reads: [], opaque: read.opaque };
    reads.push(read);
  }
  return { reads };
}

/** Every use of `name` in `fn` as `name.<member>`: read, called or written; anything else is opaque. */
function memberReads(fn: ts.Node, name: string, text: Text, locate: Locate, own: ts.Node): Pick<RequestHandOff, 'reads' | 'opaque'> {
  const reads: RequestHandOff['reads'] = [];
  for (const ref of referencesIn(fn, name, text, own)) {
    const read = memberRead(ref, text, locate);
    if ('opaque' in read) return { reads: [], opaque: read.opaque };
    reads.push(read);
  }
  return { reads };
}

/** `value.<member>` at `value` (the request): the member, whether it is called or written; else why not. */
function memberRead(value: ts.Expression, text: Text, locate: Locate): RequestHandOff['reads'][number] | { opaque: string } {
  const access = value.parent;
  // In an object literal (`{ req }`), the literal is what a reader recognises.
  const shown = ts.isShorthandPropertyAssignment(access) || ts.isPropertyAssignment(access) ? access.parent : access;
  if (!ts.isPropertyAccessExpression(access) || access.expression !== value) return { opaque: `uses it as a value (\`${snippet(shown, text)}\`)` };
  const call = ts.isCallExpression(access.parent) && access.parent.expression === access;
  return { member: access.name.text, location: locate(access), ...(call ? { call: true as const } : {}), ...(isWritten(access) ? { write: true as const } : {}) };
}

/** The source of a node for a message, at most 60 characters. */
function snippet(node: ts.Node, text: Text): string {
  const s = text(node).replace(/\s+/g, ' ');
  return s.length > 60 ? `${s.slice(0, 57)}…` : s;
}
