/**
 * The SARIF report: valid against the SARIF 2.1.0 JSON schema (the copy `@microsoft/jest-sarif`
 * ships, with formats checked), one descriptor per rule and one result per finding, stable
 * fingerprints, relative POSIX URIs under %SRCROOT%, related locations. The inventory is the real
 * one of fixtures/apps/shop-api with findings and readiness added by hand (the rules are not
 * needed here).
 */
import { readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import Ajv04 from 'ajv-draft-04';
import addFormats from 'ajv-formats';
import type * as Sarif from 'sarif';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Finding, Inventory } from '../../analyzer/model.js';
import { FINGERPRINT_KEY, renderSarif, SRCROOT } from '../../report/sarif.js';
import type { RuleMeta } from '../../rules/rule.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const require = createRequire(import.meta.url);
const SCHEMA_FILE = require.resolve('@microsoft/jest-sarif/lib/schemas/sarif-2.1.0-rtm.5.json');

const RULES: RuleMeta[] = [
  {
    id: 'body-parser-json',
    title: 'express.json() becomes Fastify body parsing',
    severity: 'warning',
    stage: 'shim',
    autoFixable: true,
    docs: {
      summary: 'Fastify parses JSON bodies itself; express.json() must leave the bridge or bodies are parsed twice.',
      fix: 'The shim stage removes express.json() and sets bodyLimit from its limit.',
      source: 'express-fastify-mapping.md §body parsing',
      example: { express: "app.use(express.json({ limit: '1mb' }))", fastify: 'Fastify({ bodyLimit: 1048576 })' },
    },
  },
  {
    id: 'router-error-handler',
    title: 'Router-level error handler',
    severity: 'error',
    stage: 'manual',
    autoFixable: false,
    docs: {
      summary: 'An error handler on a router catches only that router\'s errors; Fastify needs a scoped setErrorHandler.',
      fix: 'Move the router into a plugin with its own `setErrorHandler` (the ```routes``` stage cannot yet).',
      source: 'Fastify docs: Server#setErrorHandler',
      example: { express: 'router.use((err, req, res, next) => res.status(500).end())', fastify: 'fastify.register(async (f) => f.setErrorHandler(handler))' },
    },
  },
  {
    id: 'res-render',
    title: 'res.render needs @fastify/view',
    severity: 'info',
    stage: 'routes',
    autoFixable: true,
    docs: {
      summary: 'res.render becomes reply.view.',
      fix: 'The routes stage registers @fastify/view and rewrites the call.',
      source: 'express-fastify-mapping.md §views',
      example: { express: "res.render('home', data)", fastify: "reply.view('home', data)" },
    },
  },
];

/** The shop-api inventory with three findings (one with related locations, one in an odd path). */
async function shopInventory(): Promise<Inventory> {
  const inv = JSON.parse(JSON.stringify(await analyze({ dir: path.join(ROOT, 'fixtures/apps/shop-api') }))) as Inventory;
  const login = inv.routes.find((r) => r.key === 'POST /api/v1/auth/login')!;
  const json = inv.middleware.find((m) => m.name === 'express.json')!;
  const findings: Finding[] = [
    { id: 'finding-0a1b2c3d4e5f', rule: 'body-parser-json', severity: 'warning', stage: 'shim', autoFixable: true, message: 'express.json() parses request bodies.', fastify: 'built-in JSON parser, bodyLimit 1048576', location: json.registration, related: [], subject: json.id },
    {
      id: 'finding-1b2c3d4e5f6a',
      rule: 'router-error-handler',
      severity: 'error',
      stage: 'manual',
      autoFixable: false,
      message: `${login.key} is served by a router with its own error handler.`,
      fastify: 'an encapsulated plugin with setErrorHandler',
      location: login.registration,
      related: login.mountChain.map((m) => ({ location: m.location, message: `mounted at ${m.mountPath}` })),
      subject: login.id,
    },
    { id: 'finding-2c3d4e5f6a7b', rule: 'res-render', severity: 'info', stage: 'routes', autoFixable: true, message: 'res.render in a view helper.', fastify: "reply.view('home')", location: { file: 'src/odd dir/#view@1.ts', line: 3, column: 7 }, related: [], subject: 'project' },
  ];
  inv.findings = findings;
  inv.readiness = {
    routes: inv.routes.map((r) => ({ id: r.id, key: r.key, readiness: r.id === login.id ? 'manual' : 'auto', blockers: [], findings: r.id === login.id ? ['finding-1b2c3d4e5f6a'] : [] })),
    totals: [],
    overall: { auto: inv.routes.length - 1, assisted: 0, later: 0, manual: 1 },
    byStage: { routes: inv.routes.length - 1 },
    causes: [],
    plan: [{ stage: 'shim', findings: 1, changes: ['express.json() leaves the bridge'] }],
  };
  return inv;
}

describe('renderSarif', () => {
  let inv: Inventory;
  let log: Sarif.Log;
  let validate: ReturnType<InstanceType<typeof Ajv04.default>['compile']>;

  beforeAll(async () => {
    inv = await shopInventory();
    log = JSON.parse(renderSarif(inv, RULES));
    const ajv = new Ajv04.default({ allErrors: true, strict: false, unicodeRegExp: false }) // the schema's `language` pattern is not valid with the u flag;
    addFormats.default(ajv);
    validate = ajv.compile(JSON.parse(readFileSync(SCHEMA_FILE, 'utf8')));
  });

  it('is valid SARIF 2.1.0 (official schema, formats checked)', () => {
    expect(validate(log) ? [] : validate.errors).toEqual([]);
    const withOptions = JSON.parse(
      renderSarif(inv, RULES, { projectDir: 'fixtures/apps/shop-api', srcRoot: ROOT, informationUri: 'https://example.org/migrate', docsBaseUri: 'https://example.org/migrate/blob/main/', category: 'shop-api', invocation: { commandLine: 'migrate analyze fixtures/apps/shop-api --format sarif', startTimeUtc: '2025-01-01T00:00:00.000Z', endTimeUtc: '2025-01-01T00:00:01.000Z', workingDirectory: ROOT } }),
    );
    expect(validate(withOptions) ? [] : validate.errors).toEqual([]);
    expect(withOptions.runs[0].tool.driver.rules[0].helpUri).toBe('https://example.org/migrate/blob/main/docs/rules/body-parser-json.md');
    expect(withOptions.runs[0].results[0].locations[0].physicalLocation.artifactLocation.uri).toBe('fixtures/apps/shop-api/src/app.ts');
    expect(withOptions.runs[0].originalUriBaseIds[SRCROOT].uri).toBe(`file://${ROOT}/`);
    expect(withOptions.runs[0].automationDetails.id).toBe('shop-api/');
  });

  it('the schema check is real: it rejects a broken log', () => {
    const broken = structuredClone(log) as unknown as { runs: Array<{ results: Array<Record<string, unknown>> }> };
    broken.runs[0].results[0].level = 'fatal';
    expect(validate(broken)).toBe(false);
    const badUri = structuredClone(log) as unknown as { runs: Array<{ tool: { driver: { informationUri?: string } } }> };
    badUri.runs[0].tool.driver.informationUri = 'docs/index.md';
    expect(validate(badUri)).toBe(false);
  });

  it('describes every rule once, with docs, level, stage and autoFixable', () => {
    const run = log.runs[0];
    expect(log.version).toBe('2.1.0');
    expect(log.runs).toHaveLength(1);
    expect(run.tool.driver).toMatchObject({ name: 'express-to-fastify-migrate', version: inv.tool.version });
    expect(run.tool.driver.rules!.map((r) => r.id)).toEqual(RULES.map((r) => r.id));
    const [json, routerErr, render] = run.tool.driver.rules!;
    expect(json).toMatchObject({
      name: 'BodyParserJson',
      shortDescription: { text: RULES[0].title },
      fullDescription: { text: RULES[0].docs.summary },
      defaultConfiguration: { level: 'warning' },
      properties: { stage: 'shim', autoFixable: true, docs: 'docs/rules/body-parser-json.md' },
    });
    expect(json.help!.text).toContain(RULES[0].docs.fix);
    expect(json.help!.text).toContain(RULES[0].docs.example.express);
    expect(json.help!.markdown).toContain("```js\nFastify({ bodyLimit: 1048576 })\n```");
    expect(json.help!.markdown).toContain('[docs/rules/body-parser-json.md](docs/rules/body-parser-json.md)');
    expect(json.helpUri).toBeUndefined(); // SARIF wants an absolute helpUri: only with docsBaseUri
    expect(routerErr.defaultConfiguration!.level).toBe('error');
    expect(render.defaultConfiguration!.level).toBe('note');
  });

  it('has one result per finding with level, message, location, fingerprint and properties', () => {
    const results = log.runs[0].results!;
    expect(results).toHaveLength(3);
    const [json, routerErr, render] = results;
    const f = inv.findings![0];
    expect(json).toMatchObject({
      ruleId: 'body-parser-json',
      ruleIndex: 0,
      level: 'warning',
      message: { text: `${f.message} Fastify: ${f.fastify}` },
      partialFingerprints: { [FINGERPRINT_KEY]: f.id },
      properties: { stage: 'shim', subject: f.subject },
    });
    expect(json.locations![0].physicalLocation).toEqual({ artifactLocation: { uri: f.location.file, uriBaseId: SRCROOT }, region: { startLine: f.location.line, startColumn: f.location.column } });
    expect(routerErr.level).toBe('error');
    expect(render.level).toBe('note');
    expect(log.runs[0].originalUriBaseIds![SRCROOT]).toBeDefined();
    expect(log.runs[0].originalUriBaseIds![SRCROOT].uri).toBeUndefined(); // no machine path by default
  });

  it('writes locations as relative POSIX URI references under %SRCROOT%', () => {
    const uris = log.runs[0].results!.flatMap((r) => [...r.locations!, ...(r.relatedLocations ?? [])].map((l) => l.physicalLocation!.artifactLocation!));
    for (const a of uris) {
      expect(a.uriBaseId).toBe(SRCROOT);
      expect(a.uri).not.toMatch(/^[a-z]+:|^\/|\\/i);
    }
    expect(uris.map((a) => a.uri)).toContain('src/odd%20dir/%23view@1.ts');
  });

  it('keeps related locations with ids and messages (the mount chain of a route)', () => {
    const result = log.runs[0].results![1];
    const login = inv.routes.find((r) => r.key === 'POST /api/v1/auth/login')!;
    expect(login.mountChain.length).toBeGreaterThan(1);
    expect(result.relatedLocations).toEqual(
      login.mountChain.map((m, i) => ({ id: i + 1, message: { text: `mounted at ${m.mountPath}` }, physicalLocation: { artifactLocation: { uri: m.location.file, uriBaseId: SRCROOT }, region: { startLine: m.location.line, startColumn: m.location.column } } })),
    );
    expect(log.runs[0].results![0].relatedLocations).toBeUndefined();
  });

  it('is deterministic: fingerprints (and the whole log) are the same across renders and re-analyses', async () => {
    const again = await shopInventory();
    expect(renderSarif(again, RULES)).toBe(renderSarif(inv, RULES));
    const fps = (l: Sarif.Log) => l.runs[0].results!.map((r) => r.partialFingerprints![FINGERPRINT_KEY]);
    expect(fps(JSON.parse(renderSarif(again, RULES)))).toEqual(inv.findings!.map((f) => f.id));
    // an edit that moves a finding keeps its fingerprint
    const moved = structuredClone(inv);
    moved.findings![0].location = { ...moved.findings![0].location, line: moved.findings![0].location.line + 5 };
    expect(fps(JSON.parse(renderSarif(moved, RULES)))).toEqual(fps(log));
  });

  it('without findings (rules not run) is still a valid log with the rules and an empty result list', () => {
    const bare = structuredClone(inv);
    delete bare.findings;
    delete bare.readiness;
    const empty = JSON.parse(renderSarif(bare, RULES));
    expect(validate(empty) ? [] : validate.errors).toEqual([]);
    expect(empty.runs[0].results).toEqual([]);
  });

  it('reports what could not be resolved as tool notifications, not results', () => {
    const partial = structuredClone(inv);
    partial.diagnostics.push({ code: 'unresolved-import', severity: 'warning', message: 'cannot follow require(name)', location: { file: 'src/plugins.ts', line: 4, column: 3 } });
    const out = JSON.parse(renderSarif(partial, RULES)) as Sarif.Log;
    expect(validate(out) ? [] : validate.errors).toEqual([]);
    expect(out.runs[0].invocations![0].toolExecutionNotifications).toEqual([
      { descriptor: { id: 'unresolved-import' }, level: 'warning', message: { text: 'cannot follow require(name)' }, locations: [{ physicalLocation: { artifactLocation: { uri: 'src/plugins.ts', uriBaseId: SRCROOT }, region: { startLine: 4, startColumn: 3 } } }] },
    ]);
    expect(out.runs[0].results).toHaveLength(3);
  });

  it('keeps a finding of a rule it was not given, without ruleIndex', () => {
    const odd = structuredClone(inv);
    odd.findings!.push({ ...odd.findings![0], id: 'finding-ffffffffffff', rule: 'not-in-the-list' });
    const out = JSON.parse(renderSarif(odd, RULES)) as Sarif.Log;
    expect(validate(out) ? [] : validate.errors).toEqual([]);
    const last = out.runs[0].results![3];
    expect(last.ruleId).toBe('not-in-the-list');
    expect(last.ruleIndex).toBeUndefined();
  });

  it('refuses a projectDir outside the repository', () => {
    expect(() => renderSarif(inv, RULES, { projectDir: '../elsewhere' })).toThrow(/projectDir/);
  });
});
