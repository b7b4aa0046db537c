/**
 * Middleware that replaces a response method on Express's response (the res-method-reassign
 * findings: `res.render = …` in the app's code, express-flash from the catalogue). A moved route
 * that calls the replaced method would skip the replacement on Fastify's reply, so it stays — except
 * res.render, which a moved route renders through the replacement (`reply.renderLikeExpress`,
 * plugin-registrations/view.ts; typed by the TypeScript server module).
 */
import type { Finding, Inventory } from '../../analyzer/model.js';

/** The res-method-reassign findings of the inventory: what replaces which method (`appliesTo.uses`), where. */
export function replacements(inventory: Pick<Inventory, 'findings'>): Finding[] {
  return (inventory.findings ?? []).filter((f) => f.rule === 'res-method-reassign');
}

/** Where the app's middleware replaces res.render (`file:line`, in finding order), empty when nowhere. */
export function renderReplacedAt(inventory: Pick<Inventory, 'findings'>): string[] {
  return [...new Set(replacements(inventory).filter((f) => f.appliesTo?.uses?.includes('res.render')).map((f) => `${f.location.file}:${f.location.line}`))];
}

/**
 * Whether a moved route renders through the replacement: always, but for a TypeScript route whose
 * generated server module is JavaScript (the decorator's type, `declare module 'fastify'`, is
 * written in a TypeScript server module only: plugin-registrations/view.ts).
 */
export function rendersLikeExpress(typescript: { route: boolean; server: boolean }): boolean {
  return !typescript.route || typescript.server;
}
