/**
 * Factory calls of package middleware with their arguments folded (model.ts FactoryCall,
 * FoldedValue): the values the evaluator computed for the arguments (values.ts, the same ones
 * `Setting.value` is folded from, here keeping what did fold when a member did not), as JSON, with
 * each member known only at run time named by its path and why.
 */
import { Node, type ts } from 'ts-morph';
import { clip } from './entry.js';
import type { FactoryRecord } from './graph.js';
import type { FactoryCall, FoldedValue, Location, Route } from './model.js';
import type { HandedOn } from './usage.js';
import type { Value } from './values.js';

type Locate = (node: Node | ts.Node) => Location;
type Unresolved = NonNullable<FoldedValue['unresolved']>;
/** How a function of the app's code uses its first two parameters as `req` and `res`, and where it hands them on unfollowed (usage.ts). */
type UsageOf = (fn: Node) => Pick<Route['usage'], 'req' | 'res'> & { handedOn: HandedOn[] };
/** What fold needs to describe a function of the app's code: where it is and how it uses its parameters. */
interface Describe {
  locate: Locate;
  usageOf: UsageOf;
}

/** Left out of the folded value (a member that did not fold, or `undefined`). */
const SKIP = Symbol('skip');

/**
 * The factory call `f` as the Inventory writes it; with `usageOf`, an option that is a function
 * of the app's code says where it is and how it uses `req` and `res` (FoldedValue.unresolved).
 */
export function factoryCall(f: FactoryRecord, locate: Locate, usageOf?: UsageOf): FactoryCall {
  const site = f.site;
  const callee = (Node.isCallExpression(site) || Node.isNewExpression(site) ? site.getExpression().getText() : site.getText()).replace(/\s*[\r\n]\s*/g, '');
  return { callee: Node.isNewExpression(site) ? `new ${callee}` : callee, location: locate(site), args: f.args.map((v, i) => foldedValue(v, f.argNodes[i] ?? site, usageOf && { locate, usageOf })) };
}

/** One argument folded: its JSON value where known, and the paths that are not (a function of the app's code with its location). */
function foldedValue(v: Value, node: Node, describe: Describe | undefined): FoldedValue {
  const unresolved: Unresolved = [];
  const value = fold(v, '', unresolved, describe);
  const resolution = value === SKIP && v.k !== 'undef' ? 'unresolved' : unresolved.length ? 'partial' : 'exact';
  return { source: node.getText().slice(0, 500), ...(value === SKIP ? {} : { value }), resolution, ...(unresolved.length ? { unresolved } : {}) };
}

/**
 * JSON form of a value the evaluator folded completely (a setting's value, an option it compares),
 * or undefined when any part of it is known only at run time (fold lists nothing as unresolved).
 */
export function toJson(v: Value): unknown {
  const unresolved: Unresolved = [];
  const value = fold(v, '', unresolved);
  return value === SKIP || unresolved.length ? undefined : value;
}

function fold(v: Value, path: string, out: Unresolved, describe?: Describe): unknown {
  switch (v.k) {
    case 'str':
    case 'num':
    case 'bool':
      return v.v;
    case 'null':
      return null;
    case 'undef':
      return SKIP;
    case 'array': {
      const own: Unresolved = [];
      // JSON.stringify writes an undefined element as null.
      const items = v.items.map((item, i) => (item.k === 'undef' ? null : fold(item, `${path}[${i}]`, own, describe)));
      out.push(...own);
      return own.length ? SKIP : items;
    }
    case 'object': {
      const result: Record<string, unknown> = {};
      for (const [key, member] of v.props) {
        const folded = fold(member, join(path, key), out, describe);
        if (folded !== SKIP) result[key] = folded;
      }
      for (const o of v.opaque ?? []) {
        const spread = o.shadows !== undefined;
        // What was set before a spread it cannot read may be replaced by it, unless set again after.
        for (const [key, before] of o.shadows ?? []) {
          if (v.props.get(key) !== before || !(key in result)) continue;
          delete result[key];
          out.push({ path: join(path, key), reason: `may be replaced by \`...${clip(o.node.getText())}\`` });
        }
        out.push(spread ? { path: join(path, `...${clip(o.node.getText())}`), reason: reasonOf(o.value) } : { path: join(path, o.node.getText()), reason: `a computed key (${reasonOf(o.value)})` });
      }
      return result;
    }
    case 'fn':
      // A plain function of the app's code (not a method, nor bound to a receiver): where it is written.
      out.push({ path, reason: reasonOf(v), ...(describe && !v.method && !v.self && !v.bound ? { function: appFunction(v.node, describe) } : {}) });
      return SKIP;
    default:
      out.push({ path, reason: reasonOf(v) });
      return SKIP;
  }
}

/** Where a function of the app's code is, how many parameters it declares, and its `req`/`res` uses (FoldedValue.unresolved `function`). */
function appFunction(node: Node, { locate, usageOf }: Describe): NonNullable<Unresolved[number]['function']> {
  const { req, res, handedOn } = usageOf(node);
  const parameters = 'getParameters' in node ? (node as Node & { getParameters(): unknown[] }).getParameters().length : 0;
  return { location: locate(node), parameters, usage: { req, res, handedOn } };
}

function join(path: string, key: string): string {
  return path ? `${path}.${key}` : key;
}

/** Why a value is known only at run time, in a few words (model.ts FoldedValue.unresolved). */
function reasonOf(v: Value): string {
  switch (v.k) {
    case 'fn':
    case 'class':
    case 'method':
    case 'routeChainMethod':
    case 'fastifyMethod':
      return 'a function';
    case 'regexp':
      return 'a RegExp';
    case 'alt':
      return v.reason === 'environment' ? clip(v.text) : `chosen at run time by \`${clip(v.text)}\``;
    case 'pkg':
    case 'express':
      return `a value of the package \`${v.k === 'pkg' ? v.name : 'express'}\``;
    case 'builtin':
      return `a value of \`node:${v.name}\``;
    case 'router':
    case 'routeChain':
    case 'fastify':
      return 'an app or router';
    case 'instance':
      return 'a class instance';
    case 'unknown':
      if (!v.node) return `known only at run time (${v.reason})`;
      if (v.reason === 'environment') return clip(environmentExpression(v.node).getText());
      if (v.reason === 'call-expression') return `a call (\`${clip(v.node.getText())}\`)`;
      return `\`${clip(v.node.getText())}\` is known only at run time`;
    default:
      return 'known only at run time';
  }
}

/** `process.env.SECRET` for the `process` it starts with: the whole member chain read off it. */
function environmentExpression(node: Node): Node {
  let n = node;
  for (let p = n.getParent(); p && (Node.isPropertyAccessExpression(p) || Node.isElementAccessExpression(p)) && p.getExpression() === n; p = p.getParent()) n = p;
  return n;
}
