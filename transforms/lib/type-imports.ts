/**
 * TypeScript imports around a rewritten handler: `import type { FastifyReply, FastifyRequest }
 * from 'fastify'` added (or completed), the type-only imports a moved route's casts need
 * (`import type { Request } from 'express'` for `(request.raw as Request).user`), and the types
 * the rewrite took out of the signatures (`Request`, `Response`, `NextFunction`, …) dropped from
 * their imports once nothing uses them.
 */
import type { Collection, JSCodeshift } from 'jscodeshift';
import type { Node } from './ast.js';

/** A type-only named import: `import type { <name> as <local> } from '<from>'` (handler-rewrite/types.ts TypeImport). */
export interface NamedTypeImport {
  name: string;
  local: string;
  from: string;
}

/** Imports the Fastify types `names` (sorted, type-only), merging into an existing `import type … from 'fastify'`. */
export function addFastifyTypes(j: JSCodeshift, root: Collection, names: string[]): void {
  addTypeImports(
    j,
    root,
    names.map((name) => ({ name, local: name, from: 'fastify' })),
  );
}

/**
 * Adds each type-only import the file does not have yet: into an existing `import type { … } from
 * '<from>'` (specifiers kept sorted), else as a new type-only declaration after the last import.
 * An import already binding `local` to `name` from `from` (type-only or not) is left as it is.
 */
export function addTypeImports(j: JSCodeshift, root: Collection, imports: NamedTypeImport[]): void {
  const bySource = new Map<string, NamedTypeImport[]>();
  for (const i of imports) if (!bySource.get(i.from)?.some((o) => o.local === i.local)) bySource.set(i.from, [...(bySource.get(i.from) ?? []), i]);
  for (const [from, wanted] of bySource) {
    const declarations = root.find(j.ImportDeclaration, { source: { value: from } });
    const bound = new Set(declarations.nodes().flatMap((d: Node) => (d.specifiers ?? []).map((s: Node) => s.local?.name)));
    const missing = wanted.filter((i) => !bound.has(i.local));
    if (!missing.length) continue;
    const specifier = (i: NamedTypeImport) => j.importSpecifier(j.identifier(i.name), j.identifier(i.local));
    const existing = declarations.filter((p) => p.node.importKind === 'type').paths()[0];
    if (existing) {
      existing.node.specifiers = [...(existing.node.specifiers ?? []), ...missing.map(specifier)].sort((a: Node, b: Node) => a.imported.name.localeCompare(b.imported.name));
      continue;
    }
    const declaration = j.importDeclaration([...missing].sort((a, b) => a.name.localeCompare(b.name)).map(specifier), j.stringLiteral(from));
    declaration.importKind = 'type';
    const body: Node[] = root.find(j.Program).paths()[0].node.body;
    let last = -1;
    body.forEach((s, i) => {
      if (s.type === 'ImportDeclaration') last = i;
    });
    body.splice(last + 1, 0, declaration);
  }
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
