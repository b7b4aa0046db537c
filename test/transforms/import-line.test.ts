/**
 * lib/imports.ts insertImportLine: the import a stage adds as text (the shim's start sites) goes
 * after the module's last import or require, and before anything that uses it — also when the
 * statement that uses it shares the require's line (`const app = require('./app'); app.listen(…)`).
 */
import { describe, expect, it } from 'vitest';
import { jFor } from '../../transforms/lib/ast.js';
import { insertImportLine } from '../../transforms/lib/imports.js';

const IMPORT = "const { buildFastify, listen } = require('./fastify-server');";
const j = jFor('server.js');

describe('insertImportLine', () => {
  it('adds the line after the last require', () => {
    const source = "const app = require('./app');\n\nlisten(buildFastify(app), 3000);\n";
    expect(insertImportLine(j, source, IMPORT, { eol: '\n' })).toBe(`const app = require('./app');\n${IMPORT}\n\nlisten(buildFastify(app), 3000);\n`);
  });

  it('puts a statement sharing the require’s line on its own line, after the import', () => {
    const source = "const app = require('./app'); listen(buildFastify(app), process.env.PORT || 3000);\n";
    expect(insertImportLine(j, source, IMPORT, { eol: '\n' })).toBe(`const app = require('./app');\n${IMPORT}\nlisten(buildFastify(app), process.env.PORT || 3000);\n`);
  });
});
