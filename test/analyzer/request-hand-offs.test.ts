/** Where a handler hands `req` on as a value to a project function, and what that function does with it (analyzer/request-hand-offs.ts). */
import { describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { RequestHandOff } from '../../analyzer/model.js';
import { project } from '../helpers/tmp.js';

const MAIL = [
  'exports.send = (settings) => Promise.resolve().then(() => { settings.req.flash(settings.kind, settings.msg); return settings.req.ip; });',
  'exports.audit = ({ req }) => req.params.id;',
  'exports.keep = (settings) => { list.push(settings.req); };',
  'exports.whole = (settings) => log(settings);',
  'exports.direct = (r) => { r.user.seen = true; };',
  'exports.args = function (settings) { return arguments[0].req.params; };',
  'const list = []; function log() {}',
  '',
].join('\n');

async function handOffs(handler: string, extra = ''): Promise<string[]> {
  const app = `const express = require('express');\nconst mail = require('./mail');\nconst app = express();\n${extra}app.post('/x/:id', ${handler});\nmodule.exports = app;\n`;
  const dir = project({ 'package.json': JSON.stringify({ name: 'h', main: 'app.js', dependencies: { express: '^4.21.2' } }), 'app.js': app, 'mail.js': MAIL });
  const inv = await analyze({ dir });
  const show = (h: RequestHandOff) => `${h.location.file}:${h.location.line}:${h.location.column} ${h.callee} → ${h.opaque ?? h.reads.map((r) => `${r.member}${r.call ? '()' : ''}${r.write ? '=' : ''}@${r.location.line}`).join(' ')}`;
  return (inv.routes[0].usage.handOffs ?? []).map(show);
}

describe('request hand-offs', () => {
  it("follows req as a property of an object literal argument into the callee's reads of that property", async () => {
    expect(await handOffs("async (req, res) => { await mail.send({ kind: 'info', msg: 'sent', req }); res.end(); }")).toEqual(['app.js:4:87 mail.send → flash()@1 ip@1']);
  });

  it('follows a const object only ever passed as an argument, from a closure of the handler', async () => {
    expect(await handOffs("async (req, res) => { const go = () => { const settings = { req: req, kind: 'k' }; return mail.send(settings); }; await go(); res.end(); }")).toEqual(['app.js:4:85 mail.send → flash()@1 ip@1']);
  });

  it('leaves out a const object that is also used otherwise (not followed: the value use refuses as before)', async () => {
    expect(await handOffs("async (req, res) => { const settings = { req }; await mail.send(settings); res.json(settings.kind); }")).toEqual([]);
  });

  it('reads a destructured property and a direct argument, writes included', async () => {
    expect(await handOffs('(req, res) => { mail.audit({ req }); mail.direct(req); res.end(); }')).toEqual(['app.js:4:49 mail.audit → params@2', 'app.js:4:69 mail.direct → user=@5']);
  });

  it('is opaque when the callee hands the request or the object that holds it on', async () => {
    expect(await handOffs('(req, res) => { mail.keep({ req }); mail.whole({ req }); mail.args({ req }); res.end(); }')).toEqual([
      'app.js:4:48 mail.keep → uses it as a value (`list.push(settings.req)`)',
      'app.js:4:69 mail.whole → uses the object that holds it as a value (`log(settings)`)',
      'app.js:4:89 mail.args → reads `arguments`',
    ]);
  });

  it("records a helper's own hand-off, and counts the callee's reads as the route's usage", async () => {
    const dir = project({
      'package.json': JSON.stringify({ name: 'h', main: 'app.js', dependencies: { express: '^4.21.2' } }),
      'mail.js': MAIL,
      'app.js': "const express = require('express');\nconst mail = require('./mail');\nconst app = express();\nasync function welcome(name, req) { await mail.send({ req }); }\napp.post('/x', async (req, res) => { await welcome('a', req); res.end(); });\nmodule.exports = app;\n",
    });
    const inv = await analyze({ dir });
    const route = inv.routes[0];
    expect((route.usage.handOffs ?? []).map((h) => `${h.location.line}:${h.location.column} ${h.callee} ${h.opaque ?? h.reads.map((r) => r.member).join(',')}`)).toEqual(['4:55 mail.send flash,ip', '5:57 welcome uses it as a value (`{ req }`)']);
    expect(route.usage.req.filter((u) => u.api === 'req.flash').map((u) => `${u.location.file}:${u.location.line} via ${u.via?.line}`)).toEqual(['mail.js:1 via 4']);
  });
});
