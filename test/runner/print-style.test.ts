/** transforms/lib: style detection and printing in the file's style, on real jscodeshift edits. */
import jscodeshift, { type Collection, type JSCodeshift } from 'jscodeshift';
import { describe, expect, it } from 'vitest';
import { parserFor, parserNameFor, parses } from '../../transforms/lib/parser.js';
import { printWithStyle } from '../../transforms/lib/print.js';
import { DEFAULT_STYLE, detectStyle } from '../../transforms/lib/style.js';

/** Parses `source` as `file`, applies `edit`, prints with the detected style. */
function edit(file: string, source: string, change: (j: JSCodeshift, root: Collection) => void): string {
  const j = jscodeshift.withParser(parserFor(file));
  const root = j(source);
  change(j, root);
  return printWithStyle(root, source, detectStyle(source, file));
}

/** Adds `const x = require('y')` after the last top-level require/import. */
function addRequire(j: JSCodeshift, root: Collection): void {
  const decl = j.variableDeclaration('const', [j.variableDeclarator(j.identifier('x'), j.callExpression(j.identifier('require'), [j.stringLiteral('y')]))]);
  const body = root.find(j.Program).get('body');
  const lastImport = (body.value as Array<{ type: string }>).reduce((last, s, i) => (s.type === 'ImportDeclaration' || s.type === 'VariableDeclaration' ? i : last), -1);
  body.insertAt(lastImport + 1, decl);
}

/** Appends `g('z', { k: 'v' })` to the body of the first function declaration. */
function addCallInFunction(j: JSCodeshift, root: Collection): void {
  const call = j.expressionStatement(j.callExpression(j.identifier('g'), [j.stringLiteral('z'), j.objectExpression([j.objectProperty(j.identifier('k'), j.stringLiteral('v'))])]));
  root.find(j.FunctionDeclaration).get('body', 'body').push(call);
}

/** Lines of `before` that must appear unchanged (bytes, terminators included) in `after`. */
function untouchedLinesKept(before: string, after: string, untouched: number[]): void {
  const lines = (s: string) => s.match(/[^\n]*\n|[^\n]+$/g) ?? [];
  const out = lines(after);
  for (const n of untouched) expect(out).toContain(lines(before)[n]);
}

describe('detectStyle', () => {
  it('defaults for an empty file: single quotes, semicolons, two spaces, LF', () => {
    expect(detectStyle('')).toEqual(DEFAULT_STYLE);
  });

  it('counts quotes rather than taking the first one', () => {
    const source = `import a from "a";\nconst b = 'b';\nconst c = 'c';\nconst d = 'd';\n`;
    expect(detectStyle(source, 'x.js').quote).toBe('single');
    expect(detectStyle(`const a = "a";\nconst b = "b";\nconst c = 'c';\n`, 'x.js').quote).toBe('double');
  });

  it('ignores JSX attribute values when counting quotes', () => {
    expect(detectStyle(`const a = 'a';\nconst el = <div className="x" id="y" title="z" />;\n`, 'x.jsx').quote).toBe('single');
  });

  it('counts statements ending without a semicolon', () => {
    const source = `const a = require('a')\nconst b = 1\nfor (let i = 0; i < 2; i++) {\n  b + i\n}\nmodule.exports = a;\n`;
    expect(detectStyle(source, 'x.js').semicolons).toBe(false);
    expect(detectStyle(`const a = 1;\nlet b = 2;\nfoo()\n`, 'x.js').semicolons).toBe(true);
  });

  it('detects tabs, the indentation width and CRLF', () => {
    expect(detectStyle('function f() {\n\tif (a) {\n\t\treturn 1;\n\t}\n}\n', 'x.js').indent).toEqual({ tabs: true, width: 2 });
    expect(detectStyle('function f() {\n    if (a) {\n        return 1;\n    }\n}\n', 'x.js').indent).toEqual({ tabs: false, width: 4 });
    expect(detectStyle('const a = 1;\r\nconst b = 2;\r\nconst c = 3;\n', 'x.js').eol).toBe('\r\n');
    expect(detectStyle('const a = 1;\nconst b = 2;\r\n', 'x.js').eol).toBe('\n');
  });

  it('reads TypeScript without a file name and keeps defaults for quotes and semicolons when nothing parses', () => {
    expect(detectStyle(`const a = <any>"x"\nconst b: string = "y"\n`)).toMatchObject({ quote: 'double', semicolons: false });
    expect(detectStyle(`const a = "x" +\n\tconst\n`)).toMatchObject({ quote: 'single', semicolons: true, indent: { tabs: true } });
  });
});

describe('printWithStyle', () => {
  it('single quotes and semicolons: the new require follows them; the header comment and untouched lines stay', () => {
    const source = `// app entry\n'use strict';\nconst express = require('express');\n\nfunction start() {\n  return express(); // the app\n}\n`;
    const out = edit('server.js', source, addRequire);
    // recast puts the blank line that followed the last require both before and after the new one (jscodeshift #185).
    expect(out).toBe(`// app entry\n'use strict';\nconst express = require('express');\n\nconst x = require('y');\n\nfunction start() {\n  return express(); // the app\n}\n`);
  });

  it('double quotes: new literals get double quotes', () => {
    const source = `import express from "express";\n\nfunction start() {\n  return express();\n}\n`;
    const out = edit('server.mjs', source, (j, root) => {
      root.find(j.ImportDeclaration).insertAfter(j.importDeclaration([j.importDefaultSpecifier(j.identifier('Fastify'))], j.stringLiteral('fastify')));
      addCallInFunction(j, root);
    });
    expect(out).toBe(`import express from "express";\n\nimport Fastify from "fastify";\n\nfunction start() {\n  return express();\n\n  g("z", {\n    k: "v"\n  });\n}\n`);
  });

  it('no semicolons: recast\'s semicolons are dropped on new lines only', () => {
    const source = `const express = require('express')\n\nfunction start() {\n  const app = express()\n  return app\n}\n;[1, 2].forEach(start)\n`;
    const out = edit('server.js', source, (j, root) => {
      addRequire(j, root);
      addCallInFunction(j, root);
    });
    expect(out).toBe(`const express = require('express')\n\nconst x = require('y')\n\nfunction start() {\n  const app = express()\n  return app\n\n  g('z', {\n    k: 'v'\n  })\n}\n;[1, 2].forEach(start)\n`);
  });

  it('no semicolons: a semicolon stays where the next line would continue the statement', () => {
    const source = `const a = require('a')\nconst b = 1\n`;
    const out = edit('x.js', source, (j, root) => {
      root.find(j.Program).get('body').push(j.expressionStatement(j.callExpression(j.identifier('f'), [])));
      root.find(j.Program).get('body').push(j.expressionStatement(j.arrayExpression([j.numericLiteral(1)])));
    });
    expect(out).toBe(`const a = require('a')\nconst b = 1\nf();\n[1]\n`);
  });

  it('tabs: new and reprinted lines are indented with tabs, untouched lines byte-identical', () => {
    const source = `const a = require('a');\n\nfunction f() {\n\tif (a) {\n\t\treturn a('x'); // keep\n\t}\n}\n`;
    const out = edit('x.js', source, addCallInFunction);
    expect(out).toBe(`const a = require('a');\n\nfunction f() {\n\tif (a) {\n\t\treturn a('x'); // keep\n\t}\n\n\tg('z', {\n\t\tk: 'v'\n\t});\n}\n`);
  });

  it('CRLF: every line of the output ends with CRLF', () => {
    const source = `/* header */\r\nconst a = require("a");\r\n\r\nfunction f() {\r\n  return a("x");\r\n}\r\n`;
    const out = edit('x.cjs', source, (j, root) => {
      addRequire(j, root);
      addCallInFunction(j, root);
    });
    expect(out).toBe(`/* header */\r\nconst a = require("a");\r\n\r\nconst x = require("y");\r\n\r\nfunction f() {\r\n  return a("x");\r\n\r\n  g("z", {\r\n    k: "v"\r\n  });\r\n}\r\n`);
    expect(out.replace(/\r\n/g, '')).not.toContain('\n');
  });

  it('four-space TypeScript with types: new code is indented by four, comments survive', () => {
    const source = `import express, { type Request } from 'express';\n\n/** Starts the app. */\nfunction start(req: Request): void {\n    // log first\n    console.log(<string>req.url);\n}\n`;
    const out = edit('src/server.ts', source, (j, root) => {
      root.find(j.ImportDeclaration).insertAfter(j.importDeclaration([j.importDefaultSpecifier(j.identifier('Fastify'))], j.stringLiteral('fastify')));
      addCallInFunction(j, root);
    });
    expect(out).toBe(`import express, { type Request } from 'express';\n\nimport Fastify from 'fastify';\n\n/** Starts the app. */\nfunction start(req: Request): void {\n    // log first\n    console.log(<string>req.url);\n\n    g('z', {\n        k: 'v'\n    });\n}\n`);
    untouchedLinesKept(source, out, [0, 3, 4, 5, 6]);
  });

  it('returns the original text itself when nothing changed', () => {
    const source = `const express = require('express')\n\nmodule.exports = express()\n`;
    expect(edit('x.js', source, () => {})).toBe(source);
  });

  it("keeps a directive's semicolon single when the program is reprinted", () => {
    const source = `'use strict';\nconst a = require('a');\n`;
    const out = edit('x.js', source, (j, root) => root.find(j.Program).get('body').push(j.expressionStatement(j.callExpression(j.identifier('f'), []))));
    expect(out).toBe(`'use strict';\nconst a = require('a');\nf();\n`);
  });
});

describe('parser per extension', () => {
  it('maps extensions to ts, tsx and babel', () => {
    expect(['a.ts', 'a.mts', 'a.cts', 'a.tsx', 'a.js', 'a.mjs', 'a.cjs', 'a.jsx'].map(parserNameFor)).toEqual(['ts', 'ts', 'ts', 'tsx', 'babel', 'babel', 'babel', 'babel']);
  });

  it('parses each language with its parser and reports line:column on failure', () => {
    expect(parses('const a = <any>x;', 'a.ts')).toBeNull();
    expect(parses('const el = <div className="a" />;', 'a.jsx')).toBeNull();
    expect(parses('const el = <div />;', 'a.js')).toBeNull();
    expect(parses('import type { A } from "a";\nconst x = y satisfies A;', 'a.ts')).toBeNull();
    expect(parses('await x;\nclass A { #p = 1 }\nconsole.log(import.meta.url);', 'a.mjs')).toBeNull();
    expect(parses('const a = <any>x;', 'a.tsx')).toMatch(/^1:\d+ /);
    expect(parses('const x = ;', 'a.js')).toBe('1:11 Unexpected token');
    expect(parses('{', 'package.json')).toMatch(/JSON|position/);
  });

  it('gives JS and TS files the same Babel AST (StringLiteral, not estree Literal)', () => {
    for (const file of ['a.js', 'a.ts']) {
      const j = jscodeshift.withParser(parserFor(file));
      expect(j(`const a = 'x';`).find(j.StringLiteral).length).toBe(1);
    }
  });
});
