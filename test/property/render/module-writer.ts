/**
 * Writes one module of a generated app in its module system: imports and exports are asked for by
 * meaning (`importDefault('express', 'express')`, `exported('requireAuth', lines)`) and come out as
 * `require`/`module.exports` (CommonJS) or `import`/`export` (ESM and TypeScript). Canonical style
 * (style.ts restyles afterwards).
 */
import path from 'node:path';
import type { ModuleKind } from '../spec.js';

interface ImportEntry {
  spec: string;
  defaultName?: string;
  namespace?: string;
  named: string[];
  types: string[];
  sideEffect: boolean;
}

/** The file extension of source modules of `kind`. */
export function extensionOf(kind: ModuleKind): '.js' | '.ts' {
  return kind === 'cjs' || kind === 'esm' ? '.js' : '.ts';
}

/** One module being written: imports are merged per specifier and printed packages first; exports come last. */
export class ModuleWriter {
  readonly ts: boolean;
  readonly esmSyntax: boolean;
  private readonly imports: ImportEntry[] = [];
  private readonly body: string[] = [];
  private readonly cjsExports: string[] = [];
  private defaultExport: string | null = null;
  private preamble: string[] = [];

  /** `file`: the module's path relative to the app root, with its extension. */
  constructor(
    readonly file: string,
    readonly kind: ModuleKind,
  ) {
    this.ts = kind === 'ts-esm' || kind === 'ts-cjs';
    this.esmSyntax = kind !== 'cjs';
  }

  /** Adds a line before the imports (`'use strict';`). */
  prologue(line: string): void {
    this.preamble.push(line);
  }

  /** `import name from spec` / `const name = require(spec)`; returns `name`. */
  importDefault(spec: string, name: string): string {
    this.entry(spec).defaultName = name;
    return name;
  }

  /** `import { name } from spec` / `const { name } = require(spec)`; returns `name`. */
  importNamed(spec: string, name: string): string {
    const e = this.entry(spec);
    if (!e.named.includes(name)) e.named.push(name);
    return name;
  }

  /** `import * as name from spec` / `const name = require(spec)`; returns `name`. */
  importNamespace(spec: string, name: string): string {
    this.entry(spec).namespace = name;
    return name;
  }

  /** `import { type T } from spec`; nothing in JavaScript. */
  importType(spec: string, name: string): void {
    if (!this.ts) return;
    const e = this.entry(spec);
    if (!e.types.includes(name)) e.types.push(name);
  }

  /** `import 'spec'` / `require('spec')`. */
  importSideEffect(spec: string): void {
    this.entry(spec).sideEffect = true;
  }

  /** The specifier that reaches `target` (app-relative path without extension) from this module. */
  local(target: string): string {
    let rel = path.posix.relative(path.posix.dirname(this.file), target);
    if (!rel.startsWith('.')) rel = `./${rel}`;
    return this.kind === 'esm' || this.kind === 'ts-esm' ? `${rel}.js` : rel;
  }

  /** Puts body lines before everything written so far (declarations a later renderer found it needs). */
  prependBody(lines: string[]): void {
    this.body.unshift(...lines);
  }

  /** Appends body lines (canonical style, two spaces per level). */
  line(...lines: string[]): void {
    this.body.push(...lines);
  }

  /** Appends a declaration that the module exports under `name` (`export function …` / `module.exports = { name }`). */
  exported(name: string, declaration: string[]): void {
    if (this.esmSyntax) {
      this.body.push(`export ${declaration[0]}`, ...declaration.slice(1));
    } else {
      this.body.push(...declaration);
      this.cjsExports.push(name);
    }
  }

  /** Makes `expression` the module's default export (`export default` / `module.exports =`), written last. */
  exportDefault(expression: string): void {
    this.defaultExport = expression;
  }

  /** The module's source in canonical style. */
  toString(): string {
    const out: string[] = [...this.preamble];
    if (this.preamble.length > 0) out.push('');
    // Packages first, then the app's own modules, each group in the order asked for.
    const ordered = [...this.imports.filter((e) => !e.spec.startsWith('.')), ...this.imports.filter((e) => e.spec.startsWith('.'))];
    for (const e of ordered) out.push(...this.importLines(e));
    if (this.imports.length > 0) out.push('');
    out.push(...this.body);
    if (this.cjsExports.length > 0) out.push('', `module.exports = { ${this.cjsExports.join(', ')} };`);
    if (this.defaultExport !== null) out.push('', this.esmSyntax ? `export default ${this.defaultExport};` : `module.exports = ${this.defaultExport};`);
    return collapseBlankLines(out).join('\n') + '\n';
  }

  private entry(spec: string): ImportEntry {
    let e = this.imports.find((i) => i.spec === spec);
    if (!e) this.imports.push((e = { spec, named: [], types: [], sideEffect: false }));
    return e;
  }

  private importLines(e: ImportEntry): string[] {
    const from = `'${e.spec}'`;
    if (!this.esmSyntax) {
      const lines: string[] = [];
      const whole = e.defaultName ?? e.namespace;
      if (whole) lines.push(`const ${whole} = require(${from});`);
      if (e.named.length > 0) lines.push(`const { ${e.named.join(', ')} } = require(${from});`);
      if (lines.length === 0 && e.sideEffect) lines.push(`require(${from});`);
      return lines;
    }
    const lines: string[] = [];
    if (e.namespace) lines.push(`import * as ${e.namespace} from ${from};`);
    const braces = [...e.named, ...e.types.map((t) => `type ${t}`)];
    const parts = [e.defaultName, braces.length > 0 ? `{ ${braces.join(', ')} }` : undefined].filter(Boolean);
    if (parts.length > 0) lines.push(`import ${parts.join(', ')} from ${from};`);
    if (lines.length === 0 && e.sideEffect) lines.push(`import ${from};`);
    return lines;
  }
}

function collapseBlankLines(lines: string[]): string[] {
  const out: string[] = [];
  for (const l of lines) if (!(l === '' && (out.length === 0 || out[out.length - 1] === ''))) out.push(l);
  while (out[out.length - 1] === '') out.pop();
  return out;
}
