/**
 * Where a name of a file comes from, read from its `import` declarations and `require` calls
 * (syntactic, no type checker): the specifier and what the name is bound to.
 */
import { Node, SyntaxKind, type SourceFile } from 'ts-morph';

export interface ImportBinding {
  specifier: string;
  /** The export the name is bound to: an export name, `default`, or `*` for the whole module (ESM namespace or a CommonJS `require`). */
  imported: string;
  kind: 'import' | 'require';
}

/** How `name` is imported in `file` (`import { a as name }`, `import * as name`, `const { a: name } = require(…)`), or undefined. */
export function importBindingOf(file: SourceFile, name: string): ImportBinding | undefined {
  for (const imp of file.getImportDeclarations()) {
    const specifier = imp.getModuleSpecifierValue();
    const named = imp.getNamedImports().find((n) => (n.getAliasNode()?.getText() ?? n.getName()) === name);
    if (named) return { specifier, imported: named.getName(), kind: 'import' };
    if (imp.getNamespaceImport()?.getText() === name) return { specifier, imported: '*', kind: 'import' };
    if (imp.getDefaultImport()?.getText() === name) return { specifier, imported: 'default', kind: 'import' };
  }
  for (const decl of file.getDescendantsOfKind(SyntaxKind.VariableDeclaration)) {
    const init = decl.getInitializer();
    const arg = init && Node.isCallExpression(init) && init.getExpression().getText() === 'require' ? init.getArguments()[0] : undefined;
    if (!arg || !Node.isStringLiteral(arg)) continue;
    const nameNode = decl.getNameNode();
    if (Node.isObjectBindingPattern(nameNode)) {
      const el = nameNode.getElements().find((e) => e.getName() === name);
      if (el) return { specifier: arg.getLiteralValue(), imported: el.getPropertyNameNode()?.getText() ?? name, kind: 'require' };
    } else if (nameNode.getText() === name) return { specifier: arg.getLiteralValue(), imported: '*', kind: 'require' };
  }
  return undefined;
}
