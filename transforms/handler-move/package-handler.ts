/**
 * A package's error middleware that answers on Node's request and response
 * (rules/catalogue/middleware.ts `answersErrorsOnRaw`: errorhandler), moved as it is: its Express
 * registration goes, and the generated module runs the same factory call on `request.raw` /
 * `reply.raw` (server-module/build-fastify.ts `registerHandler`, HandlerRegistration.onRaw).
 */
import type { JSCodeshift } from 'jscodeshift';
import { anchorOf, type Anchor } from '../lib/anchor.js';
import { isReference } from '../lib/ast.js';
import type { Guard } from '../lib/guard.js';
import type { Registration } from '../lib/registration.js';
import type { GeneratedModule } from '../server-module/locate.js';
import type { MoveEntry, RegisterEntry } from './model.js';
import type { Candidate, MoveStep, Outcome } from './plan.js';

/**
 * A package's error middleware registered as `app.use(errorhandler(options))`: its registration
 * goes, and the generated module runs the same factory call on Node's request and response. The
 * arguments must read nothing of the app's module (literals only). `target.compiledToCommonJs`:
 * the generated module is TypeScript that tsc compiles to CommonJS.
 */
export function packageOutcome(j: JSCodeshift, step: MoveStep, c: Candidate, target: GeneratedModule & { compiledToCommonJs: boolean }, at: { found: Registration; regSource: string; statement: Anchor | null; guard: Guard | null }): Outcome {
  const arg = at.found.call.node.arguments[at.found.argIndex];
  const stay = (reason: string): Outcome => ({ blocker: { code: 'error-handler-package', reason }, statement: at.statement, staleTodo: false });
  if (arg.type !== 'CallExpression') return stay(`it is the package ${c.package}'s middleware made outside its registration; register it as app.use(${c.name}(…)) or write the Fastify error handler`);
  const args = arg.arguments as Array<{ start: number; end: number }>;
  const text = args.length ? at.regSource.slice(args[0].start, args[args.length - 1].end) : '';
  const reads = j(at.found.call.get('arguments', at.found.argIndex))
    .find(j.Identifier)
    .filter((p) => p.parent.node !== arg && isReference(p) && p.node.name !== 'undefined');
  if (reads.size()) return stay(`the package ${c.package}'s options \`${text}\` read names of its module, which the generated module does not have`);
  const entries: Array<[string, MoveEntry]> = [[c.registration.file, { kind: 'unregister', statement: anchorOf(at.found.statement), argIndex: at.found.argIndex }]];
  const register: RegisterEntry = {
    kind: 'register',
    method: step.method,
    // TypeScript compiled to CommonJS calls the package's factory through `import x = require(…)` (the shim's rule for finalhandler).
    import: { specifier: c.package!, form: { kind: 'default' }, local: localNameOf(c.package!), module: target.module, ...(target.compiledToCommonJs ? { equalsRequire: true } : {}) },
    from: c.registration.file,
    typescript: target.typescript,
    onRaw: { args: text },
    ...(at.guard?.text ? { guard: at.guard.text } : {}),
  };
  return { entries, register: [target.file, register], statement: at.statement, staleTodo: false, deltas: [], dependencies: {}, ...(at.guard?.text ? { guard: at.guard } : {}) };
}

/** A package's name as a local (`errorhandler`, `@acme/err-handler` → `errHandler`). */
function localNameOf(pkg: string): string {
  const base = pkg.split('/').pop()!.replace(/[^A-Za-z0-9_$]+(.)?/g, (_, ch: string | undefined) => (ch ? ch.toUpperCase() : ''));
  return /^[A-Za-z_$]/.test(base) ? base : `_${base}`;
}
