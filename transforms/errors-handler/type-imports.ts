/**
 * TypeScript imports around a rewritten handler: `import type { FastifyReply, FastifyRequest }
 * from 'fastify'` added (or completed), and the types the rewrite took out of the signatures
 * (`Request`, `Response`, `NextFunction`, …) dropped from their imports once nothing uses them.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from './source-files.js';

/** Imports the Fastify types `names` (sorted, type-only), merging into an existing `import type … from 'fastify'`. */
export function addFastifyTypes(j: JSCodeshift, root: Collection, names: string[]): void {
  if (!names.length) return;
  const existing = root.find(j.ImportDeclaration, { source: { value: 'fastify' } }).filter((p) => p.node.importKind === 'type').paths()[0];
  if (existing) {
    const have = new Set((existing.node.specifiers ?? []).map((s: Node) => s.imported?.name));
    const missing = names.filter((n) => !have.has(n));
    if (!missing.length) return;
    existing.node.specifiers = [...(existing.node.specifiers ?? []), ...missing.map((n) => j.importSpecifier(j.identifier(n), j.identifier(n)))].sort((a: Node, b: Node) => a.imported.name.localeCompare(b.imported.name));
    return;
  }
  const declaration = j.importDeclaration([...new Set(names)].sort().map((n) => j.importSpecifier(j.identifier(n), j.identifier(n))), j.stringLiteral('fastify'));
  declaration.importKind = 'type';
  const body: Node[] = root.find(j.Program).paths()[0].node.body;
  let last = -1;
  body.forEach((s, i) => {
    if (s.type === 'ImportDeclaration') last = i;
  });
  body.splice(last + 1, 0, declaration);
}

/**
 * Drops the import specifiers of `names` (types the rewrite took out of handler signatures) that
 * nothing in the file references any more; an import left empty goes too.
 */
export function dropUnusedImports(j: JSCodeshift, root: Collection, names: string[]): void {
  const candidates = new Set(names.filter((n) => !referenced(j, root, n)));
  if (!candidates.size) return;
  root.find(j.ImportDeclaration).forEach((p) => {
    const specifiers: Node[] = p.node.specifiers ?? [];
    const kept = specifiers.filter((s) => !(s.type === 'ImportSpecifier' && candidates.has(s.local.name)));
    if (kept.length === specifiers.length) return;
    if (kept.length) p.node.specifiers = kept;
    else p.prune();
  });
}

function referenced(j: JSCodeshift, root: Collection, name: string): boolean {
  return (
    root
      .find(j.Identifier, { name })
      .filter((p) => !/^Import/.test(p.parent.node.type) && !(p.parent.node.type === 'MemberExpression' && p.parent.node.property === p.node && !p.parent.node.computed))
      .size() > 0
  );
}
