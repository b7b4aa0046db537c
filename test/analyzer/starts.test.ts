/**
 * Start sites (App.starts, analyzer/starts.ts): every place that starts an app, recognised by the
 * app's value through any import form (tsconfig paths, CommonJS, ESM, re-exports, factories),
 * never by a variable's name; a server for another request listener is not one.
 */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import { project } from '../helpers/tmp.js';

const pkg = (main: string, type: 'module' | 'commonjs' = 'commonjs') => JSON.stringify({ name: 'starts', type, main, dependencies: { express: '^4.21.2' } });

describe('start sites', () => {
  it('follows a tsconfig paths alias to the app and records http.createServer(app).listen(3000) as one create-server site', async () => {
    const dir = project({
      'package.json': pkg('src/server.ts'),
      'tsconfig.json': JSON.stringify({ compilerOptions: { module: 'commonjs', paths: { '@/*': ['src/*'] } } }),
      'src/app.ts': "import express from 'express';\n\nconst app = express();\napp.get('/', (req, res) => res.send('ok'));\n\nexport default app;\n",
      'src/server.ts': "import http from 'node:http';\nimport app from '@/app';\n\nhttp.createServer(app).listen(3000);\n",
    });
    const inv = await analyze({ dir });
    expect(inv.apps.map((a) => [a.name, a.location.file, a.starts])).toEqual([
      ['app', 'src/app.ts', [{ kind: 'create-server', location: { file: 'src/server.ts', line: 4, column: 1 }, end: { line: 4, column: 23 }, callee: 'http.createServer', args: ['app'], appArgument: 0 }]],
    ]);
    expect(inv.apps[0].listen).toEqual([]);
  });

  it('follows require() of module.exports = app to app.listen', async () => {
    const dir = project({
      'package.json': pkg('server.js'),
      'app.js': "const express = require('express');\nconst app = express();\napp.get('/', (req, res) => res.send('ok'));\nmodule.exports = app;\n",
      'server.js': "const server = require('./app');\nconst port = process.env.PORT || 3000;\nserver.listen(port, () => {\n  console.log('listening');\n});\n",
    });
    const inv = await analyze({ dir });
    expect(inv.apps[0].starts).toEqual([
      { kind: 'listen', location: { file: 'server.js', line: 3, column: 1 }, end: { line: 5, column: 3 }, callee: 'server.listen', args: ['port', "() => {\n  console.log('listening');\n}"] },
    ]);
  });

  it('records https.createServer(options, app) of an ESM app with the app as argument 1, and new http.Server, through a re-export', async () => {
    const dir = project({
      'package.json': pkg('server.js', 'module'),
      'app.js': "import express from 'express';\nconst app = express();\napp.get('/', (req, res) => res.send('ok'));\nexport default app;\n",
      'index.js': "export { default } from './app.js';\n",
      'server.js': [
        "import https from 'node:https';",
        "import http from 'http';",
        "import { readFileSync } from 'node:fs';",
        "import site from './index.js';",
        '',
        "https.createServer({ key: readFileSync('key.pem'), cert: readFileSync('cert.pem') }, site).listen(443);",
        'const legacy = new http.Server(site);',
        '',
      ].join('\n'),
    });
    const inv = await analyze({ dir });
    expect(inv.apps[0].starts).toEqual([
      { kind: 'create-server', location: { file: 'server.js', line: 6, column: 1 }, end: { line: 6, column: 91 }, callee: 'https.createServer', args: ["{ key: readFileSync('key.pem'), cert: readFileSync('cert.pem') }", 'site'], appArgument: 1 },
      { kind: 'create-server', location: { file: 'server.js', line: 7, column: 16 }, end: { line: 7, column: 37 }, callee: 'new http.Server', args: ['site'], appArgument: 0 },
    ]);
  });

  it('follows a factory createApp() returning the app', async () => {
    const dir = project({
      'package.json': pkg('main.js'),
      'app.js': "const express = require('express');\nfunction createApp() {\n  const app = express();\n  app.get('/', (req, res) => res.send('ok'));\n  return app;\n}\nmodule.exports = { createApp };\n",
      'main.js': "const { createApp } = require('./app');\nconst app = createApp();\napp.listen();\n",
    });
    const inv = await analyze({ dir });
    expect(inv.apps.map((a) => [a.name, a.starts])).toEqual([
      ['app', [{ kind: 'listen', location: { file: 'main.js', line: 3, column: 1 }, end: { line: 3, column: 13 }, callee: 'app.listen', args: [] }]],
    ]);
  });

  it('does not take a redirect server http.createServer((req, res) => …) for a start site of the app; require("http").createServer(app) is one', async () => {
    const dir = project({
      'package.json': pkg('server.js'),
      'server.js': [
        "const http = require('node:http');",
        "const express = require('express');",
        'const app = express();',
        "app.get('/', (req, res) => res.send('ok'));",
        "const server = require('http').createServer(app);",
        'http.createServer((req, res) => {',
        "  res.writeHead(301, { Location: 'https://' + req.headers.host + req.url });",
        '  res.end();',
        '}).listen(80);',
        'server.listen(443);',
        '',
      ].join('\n'),
    });
    const inv = await analyze({ dir });
    expect(inv.apps[0].starts).toEqual([{ kind: 'create-server', location: { file: 'server.js', line: 5, column: 16 }, end: { line: 5, column: 49 }, callee: "require('http').createServer", args: ['app'], appArgument: 0 }]);
  });

  it('records a Fastify app\'s listen calls', async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'f', main: 'app.js', dependencies: { fastify: '^5.2.0' } }),
      'app.js': "const Fastify = require('fastify');\nconst fastify = Fastify();\nfastify.get('/', async () => 'ok');\nfastify.listen({ port: 3000 });\n",
    });
    const inv = await analyze({ dir });
    expect(inv.apps[0].starts).toEqual([{ kind: 'listen', location: { file: 'app.js', line: 4, column: 1 }, end: { line: 4, column: 31 }, callee: 'fastify.listen', args: ['{ port: 3000 }'] }]);
  });
});
