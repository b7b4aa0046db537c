/**
 * Import lines the server-module editors add in one snippet (recast keeps a snippet's line breaks):
 * named, default and namespace imports, as ESM imports or CommonJS requires.
 */
import type { JSCodeshift } from 'jscodeshift';
import type { Node } from '../lib/ast.js';

/** One import: `name` exported by `specifier`, bound as `local`; `kind` default / namespace ignore `name`. */
export interface ImportLine {
  name: string;
  local: string;
  specifier: string;
  kind: 'named' | 'default' | 'namespace';
}

/** The imports (ESM) or destructuring requires (CommonJS) after the module's last one, from one snippet. */
export function insertImports(j: JSCodeshift, program: Node[], module: 'esm' | 'commonjs', imports: ImportLine[], q: string): void {
  const text = imports
    .map((i) => {
      const from = `${q}${i.specifier}${q}`;
      if (i.kind === 'namespace') return `import * as ${i.local} from ${from};`;
      if (i.kind === 'default') return module === 'esm' ? `import ${i.local} from ${from};` : `const ${i.local} = require(${from});`;
      const binding = i.name === i.local ? i.name : module === 'esm' ? `${i.name} as ${i.local}` : `${i.name}: ${i.local}`;
      return module === 'esm' ? `import { ${binding} } from ${from};` : `const { ${binding} } = require(${from});`;
    })
    .join('\n');
  const isImport = (s: Node) => s.type === 'ImportDeclaration' || (s.type === 'VariableDeclaration' && s.declarations.some((d: Node) => d.init?.type === 'CallExpression' && d.init.callee.name === 'require'));
  let last = -1;
  program.forEach((s, i) => {
    if (isImport(s)) last = i;
  });
  program.splice(last + 1, 0, ...j(text).find(j.Program).paths()[0].node.body);
}

