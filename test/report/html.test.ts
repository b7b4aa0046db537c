/**
 * The HTML report: one self-contained, offline file; every route and finding escaped (a path or
 * message with markup from user code stays text); no external URLs; each record rendered once;
 * the sort/filter script present, allowed by the CSP hash and valid JavaScript. When jsdom or
 * happy-dom is installed, the page is also loaded and clicked: a header click reorders rows and
 * typing in the filter hides rows. The inventory is the real one of fixtures/apps/shop-api with
 * findings, readiness and diagnostics added by hand.
 */
import { createHash } from 'node:crypto';
import path from 'node:path';
import { Script } from 'node:vm';
import { beforeAll, describe, expect, it } from 'vitest';
import { analyze } from '../../analyzer/analyze.js';
import type { Finding, Inventory, RouteReadiness } from '../../analyzer/model.js';
import { escapeHtml, renderHtml } from '../../report/html.js';
import type { RuleMeta } from '../../rules/rule.js';

const ROOT = path.resolve(import.meta.dirname, '../..');
const XSS_PATH = '/search/<script>alert(1)</script>';
const XSS_MESSAGE = 'Handler writes <img src=x onerror=alert(1)> & "quotes" into the body.';

const RULES: RuleMeta[] = [
  {
    id: 'body-parser-json',
    title: 'express.json() becomes Fastify body parsing',
    severity: 'warning',
    stage: 'shim',
    autoFixable: true,
    docs: { summary: 'Fastify parses JSON bodies itself.', fix: 'The shim stage removes express.json().', source: 'mapping §body', example: { express: 'app.use(express.json())', fastify: 'Fastify({ bodyLimit })' } },
  },
  {
    id: 'router-error-handler',
    title: 'Router-level error handler',
    severity: 'error',
    stage: 'manual',
    autoFixable: false,
    docs: { summary: 'Scoped error handling.', fix: 'Use an encapsulated plugin with setErrorHandler.', source: 'Fastify docs', example: { express: 'router.use((err, req, res, next) => {})', fastify: 'f.setErrorHandler(h)' } },
  },
  {
    id: 'res-send-html',
    title: 'res.send of a string',
    severity: 'info',
    stage: 'routes',
    autoFixable: true,
    docs: { summary: 'Content type of string bodies.', fix: 'The routes stage sets the type.', source: 'mapping §send', example: { express: "res.send('<p>')", fastify: "reply.type('text/html').send('<p>')" } },
  },
];

/** shop-api with a route whose path carries markup, three findings, readiness and two diagnostics. */
async function shopInventory(): Promise<Inventory> {
  const inv = JSON.parse(JSON.stringify(await analyze({ dir: path.join(ROOT, 'fixtures/apps/shop-api') }))) as Inventory;
  const health = inv.routes.find((r) => r.key === 'GET /health')!;
  health.path = { ...health.path, raw: XSS_PATH, full: XSS_PATH };
  health.key = `GET ${XSS_PATH}`;
  const login = inv.routes.find((r) => r.key === 'POST /api/v1/auth/login')!;
  const products = inv.routes.find((r) => r.key === 'GET /api/v1/products')!;
  const json = inv.middleware.find((m) => m.name === 'express.json')!;
  const findings: Finding[] = [
    { id: 'finding-aaaa00000001', rule: 'body-parser-json', severity: 'warning', stage: 'shim', autoFixable: true, message: 'express.json() parses request bodies.', fastify: 'built-in JSON parser', location: json.registration, related: [], subject: json.id },
    { id: 'finding-aaaa00000002', rule: 'router-error-handler', severity: 'error', stage: 'manual', autoFixable: false, message: 'The auth router has its own error handler.', fastify: 'setErrorHandler in the plugin', location: login.registration, related: login.mountChain.map((m) => ({ location: m.location, message: `mounted at ${m.mountPath}` })), subject: login.id },
    { id: 'finding-aaaa00000003', rule: 'res-send-html', severity: 'info', stage: 'routes', autoFixable: true, message: XSS_MESSAGE, fastify: "reply.type('text/html')", location: health.registration, related: [], subject: health.id },
  ];
  const readinessOf = (id: string): RouteReadiness => (id === login.id ? 'manual' : id === health.id || id === products.id ? 'assisted' : 'auto');
  inv.findings = findings;
  inv.readiness = {
    routes: inv.routes.map((r) => ({ id: r.id, key: r.key, readiness: readinessOf(r.id), blockers: [], findings: findings.filter((f) => f.subject === r.id || (r.id === products.id && f.rule === 'body-parser-json')).map((f) => f.id) })),
    totals: [{ ownerId: login.ownerId, name: 'auth', auto: 2, assisted: 0, later: 0, manual: 1 }],
    overall: { auto: inv.routes.length - 3, assisted: 2, later: 0, manual: 1 },
    byStage: { routes: inv.routes.length - 1 },
    causes: [],
    plan: [
      { stage: 'routes', findings: 1, changes: ['res.send of strings gets reply.type'] },
      { stage: 'shim', findings: 1, changes: ['express.json() leaves the bridge', 'bodyLimit <= 1mb'] },
      { stage: 'manual', findings: 1, changes: [] },
    ],
  };
  inv.diagnostics.push(
    { code: 'unresolved-import', severity: 'warning', message: 'cannot follow require(`./plugins/${name}`)', location: { file: 'src/plugins.ts', line: 4, column: 3 } },
    { code: 'express4-path-syntax', severity: 'info', message: 'GET /files/* uses Express 4 wildcard syntax', location: { file: 'src/app.ts', line: 9, column: 1 } },
  );
  return inv;
}

const loadDomInto = await loadDom();

const count = (haystack: string, needle: string) => haystack.split(needle).length - 1;
const scriptOf = (html: string) => /<script>([\s\S]*?)<\/script>/.exec(html)![1];
const styleOf = (html: string) => /<style>([\s\S]*?)<\/style>/.exec(html)![1];

describe('renderHtml', () => {
  let inv: Inventory;
  let html: string;

  beforeAll(async () => {
    inv = await shopInventory();
    html = renderHtml(inv, RULES);
  });

  it('is one HTML document with the header: project, headline, readiness totals, findings by severity', () => {
    expect(html.startsWith('<!doctype html>\n<html lang="en">')).toBe(true);
    expect(html.trimEnd().endsWith('</html>')).toBe(true);
    expect(html).toContain('<title>Express → Fastify migration: @fixtures/shop-api</title>');
    expect(html).toContain(escapeHtml(inv.summary.headline));
    expect(html).toMatch(new RegExp(`<dt>auto</dt><dd>${inv.routes.length - 3}</dd>.*<dt>assisted</dt><dd>2</dd>.*<dt>manual</dt><dd>1</dd>`));
    expect(html).toMatch(/<dt>error<\/dt><dd>1<\/dd>.*<dt>warning<\/dt><dd>1<\/dd>.*<dt>info<\/dt><dd>1<\/dd>/);
  });

  it('has every route (method, full path, owner, readiness, chain length, findings, file:line), escaped', () => {
    for (const r of inv.routes) {
      const row = html.split('\n').find((l) => l.includes(`data-search="${escapeHtml(r.id)} `))!;
      expect(row, r.key).toBeDefined();
      expect(row).toContain(`<span class="method">${r.method}</span></td><td><code>${escapeHtml(r.path.full)}</code>`);
      expect(row).toContain(`<td class="num">${r.chain.length}</td>`);
      expect(row).toContain(`>${r.registration.file}:${r.registration.line}</span>`);
    }
    const login = html.split('\n').find((l) => l.includes('<code>/api/v1/auth/login</code>'))!;
    expect(login).toContain('data-readiness="manual"');
    expect(login).toContain('data-severities="error"');
    expect(login).toContain('<td>auth at /api/v1/auth</td>');
    const products = html.split('\n').find((l) => l.includes('<code>/api/v1/products</code>') && l.includes('data-readiness'))!;
    expect(products).toContain('data-severities="warning"'); // a finding of its chain, from readiness
    expect(products).toContain('<td class="num" data-sort="1">');
  });

  it('escapes markup from user code: a <script> in a path and HTML in a message stay text', () => {
    expect(html).toContain('<code>/search/&lt;script&gt;alert(1)&lt;/script&gt;</code>');
    expect(html).toContain(escapeHtml(XSS_MESSAGE));
    expect(html).not.toContain('<script>alert(1)');
    expect(html).not.toContain('<img src=x');
    expect(count(html, '<script')).toBe(1);
    // fields typed as enumerations are escaped too: an inventory may be read from a hand-edited file
    const forged = structuredClone(inv);
    Object.assign(forged.findings![0], { severity: '"><svg onload=alert(1)>', stage: '<b>x</b>' });
    const out = renderHtml(forged, RULES);
    expect(out).not.toContain('<svg onload');
    expect(out).not.toContain('<b>x</b>');
    expect(out).toContain('&lt;b&gt;x&lt;/b&gt;');
    expect(escapeHtml(`<a href="x" title='y'>&amp;</a>`)).toBe('&lt;a href=&quot;x&quot; title=&#39;y&#39;&gt;&amp;amp;&lt;/a&gt;');
  });

  it('has every finding (severity, rule, message, Fastify form, location, stage) with its related locations', () => {
    for (const f of inv.findings!) {
      const row = html.split('\n').find((l) => l.includes(`data-id="${f.id}"`))!;
      expect(row).toContain(`data-severity="${f.severity}" data-stage="${f.stage}"`);
      expect(row).toContain(`<code title="${escapeHtml(RULES.find((r) => r.id === f.rule)!.title)}">${f.rule}</code>`);
      expect(row).toContain(`<td>${escapeHtml(f.message)}`);
      expect(row).toContain(`<td><code>${escapeHtml(f.fastify)}</code></td>`);
      expect(row).toContain(`>${f.location.file}:${f.location.line}</span>`);
      for (const r of f.related) expect(row).toContain(`<li>${escapeHtml(r.message)} `);
    }
  });

  it('has the stage plan in stage order, readiness by router, the rules that fired, notes and what is not resolved', () => {
    const plan = html.slice(html.indexOf('<section id="plan">'), html.indexOf('</section>', html.indexOf('<section id="plan">')));
    expect(plan.indexOf('<h3>shim')).toBeLessThan(plan.indexOf('<h3>routes'));
    expect(plan.indexOf('<h3>routes')).toBeLessThan(plan.indexOf('<h3>manual'));
    expect(plan).toContain('<li>bodyLimit &lt;= 1mb</li>');
    expect(html).toContain('<section id="routers">');
    expect(html).toMatch(/<td>auth at \/api\/v1\/auth<\/td><td class="num">2<\/td><td class="num">0<\/td><td class="num">0<\/td><td class="num">1<\/td><td class="num">3<\/td>/);
    expect(html).toContain('<code>router-error-handler</code> Router-level error handler');
    const unresolved = html.slice(html.indexOf('<section id="unresolved">'));
    expect(unresolved).toContain(escapeHtml('cannot follow require(`./plugins/${name}`)'));
    expect(unresolved).toContain('src/plugins.ts:4');
    expect(html.slice(html.indexOf('<section id="notes">'), html.indexOf('<section id="unresolved">'))).toContain('GET /files/* uses Express 4 wildcard syntax');
  });

  it('loads nothing: no external URL in src or href, no link or remote script, a CSP that forbids the network', () => {
    expect(html).not.toMatch(/\b(?:src|href|action|srcset|poster|data)\s*=\s*["']?\s*(?:[a-z][a-z0-9+.-]*:|\/\/)/i);
    expect(html).not.toMatch(/<(?:link|iframe|object|embed|img|base)\b/i);
    expect(html).not.toMatch(/<script\s+[^>]*src/i);
    expect(styleOf(html)).not.toMatch(/url\(|@import/);
    expect(scriptOf(html)).not.toMatch(/fetch|XMLHttpRequest|import\(|https?:/);
    for (const href of html.matchAll(/href="([^"]*)"/g)) expect(href[1]).toMatch(/^#[a-z]+$/);
    const csp = /<meta http-equiv="Content-Security-Policy" content="([^"]+)">/.exec(html)![1];
    expect(csp).toContain("default-src 'none'");
    const hash = (s: string) => `'sha256-${createHash('sha256').update(s, 'utf8').digest('base64')}'`;
    expect(csp).toContain(`script-src ${hash(scriptOf(html))}`);
    expect(csp).toContain(`style-src ${hash(styleOf(html))}`);
  });

  it('embeds the data once: each route and finding is one row, and there is no JSON copy', () => {
    for (const r of inv.routes) expect(count(html, `data-search="${escapeHtml(r.id)} `), r.key).toBe(1);
    for (const f of inv.findings!) {
      expect(count(html, f.id), f.id).toBe(1);
      expect(count(html, escapeHtml(f.message)), f.id).toBe(1);
    }
    expect(html).not.toContain('application/json');
    expect(count(html, '<tbody>')).toBe(3); // routes, findings, routers
  });

  it('has the sort and filter controls and a script that compiles', () => {
    expect(count(html, '<button type="button" title="Sort by')).toBe(7 + 6 + 0 /* one router: not sortable */);
    expect(html).toContain('<input type="search" data-filter-for="routes-table" data-filter="text"');
    expect(html).toContain('<select data-filter-for="routes-table" data-filter="readiness"');
    expect(html).toContain('<select data-filter-for="routes-table" data-filter="severities"');
    expect(html).toContain('<input type="search" data-filter-for="findings-table" data-filter="text"');
    expect(html).toContain('<select data-filter-for="findings-table" data-filter="severity"');
    expect(html).toContain('<select data-filter-for="findings-table" data-filter="stage"');
    const script = scriptOf(html);
    expect(script).toContain("addEventListener('click'");
    expect(script).toContain("addEventListener('input'");
    expect(() => new Script(script)).not.toThrow();
  });

  it('is deterministic', async () => {
    expect(renderHtml(await shopInventory(), RULES)).toBe(html);
  });

  it('without rules run, says so instead of showing empty readiness and findings', () => {
    const bare = structuredClone(inv);
    delete bare.findings;
    delete bare.readiness;
    const out = renderHtml(bare, []);
    expect(out).toContain('Not computed: the rules did not run.');
    expect(out).toContain('The rules did not run, so there are no findings yet.');
    expect(out).not.toContain('data-filter="readiness"');
    expect(out).toContain('data-readiness="unknown"');
    expect(out).toContain('<code>/api/v1/auth/login</code>');
  });

  it.skipIf(!loadDomInto)('in a DOM (jsdom or happy-dom, when installed): a header click reorders rows, the filters hide rows', async () => {
    const doc = loadDomInto!(html);
    const paths = () => [...doc.querySelectorAll('#routes-table tbody tr')].map((tr) => tr.querySelector('code')!.textContent);
    const visible = () => [...doc.querySelectorAll('#routes-table tbody tr')].filter((tr) => !(tr as HTMLElement).hidden).length;
    const before = paths();
    expect(before).toEqual(inv.routes.map((r) => r.path.full));
    expect(doc.querySelector('[data-count-for="routes-table"]')!.textContent).toBe(`${inv.routes.length} rows`);

    const pathHeader = [...doc.querySelectorAll('#routes-table th')][1];
    (pathHeader.querySelector('button') as HTMLElement).click();
    expect(pathHeader.getAttribute('aria-sort')).toBe('ascending');
    const ascending = [...before].sort((a, b) => a!.localeCompare(b!, 'en', { numeric: true, sensitivity: 'base' }));
    expect(paths()).toEqual(ascending);
    (pathHeader.querySelector('button') as HTMLElement).click();
    expect(pathHeader.getAttribute('aria-sort')).toBe('descending');
    expect(paths()[0]).toBe(ascending[ascending.length - 1]);

    const text = doc.querySelector('[data-filter-for="routes-table"][data-filter="text"]') as HTMLInputElement;
    text.value = 'cart items';
    text.dispatchEvent(new doc.defaultView!.Event('input', { bubbles: true }));
    expect(visible()).toBe(inv.routes.filter((r) => r.path.full.startsWith('/api/v1/cart/items')).length);
    expect(doc.querySelector('[data-count-for="routes-table"]')!.textContent).toBe(`${visible()} of ${inv.routes.length} rows`);
    text.value = 'no-such-route';
    text.dispatchEvent(new doc.defaultView!.Event('input', { bubbles: true }));
    expect(visible()).toBe(0);
    expect((doc.querySelector('[data-empty-for="routes-table"]') as HTMLElement).hidden).toBe(false);
    text.value = '';
    text.dispatchEvent(new doc.defaultView!.Event('input', { bubbles: true }));

    const readiness = doc.querySelector('[data-filter="readiness"]') as HTMLSelectElement;
    readiness.value = 'manual';
    readiness.dispatchEvent(new doc.defaultView!.Event('change', { bubbles: true }));
    expect(visible()).toBe(1);
    readiness.value = '';
    readiness.dispatchEvent(new doc.defaultView!.Event('change', { bubbles: true }));
    const severity = doc.querySelector('[data-filter="severities"]') as HTMLSelectElement;
    severity.value = 'none';
    severity.dispatchEvent(new doc.defaultView!.Event('change', { bubbles: true }));
    expect(visible()).toBe(inv.routes.length - 3);

    const stage = doc.querySelector('[data-filter-for="findings-table"][data-filter="stage"]') as HTMLSelectElement;
    stage.value = 'shim';
    stage.dispatchEvent(new doc.defaultView!.Event('change', { bubbles: true }));
    expect([...doc.querySelectorAll('#findings-table tbody tr')].filter((tr) => !(tr as HTMLElement).hidden).map((tr) => tr.getAttribute('data-id'))).toEqual(['finding-aaaa00000001']);
  });
});

/**
 * A function that loads HTML into a DOM with scripts run, from jsdom or happy-dom when one is
 * installed (neither is a dependency of this repository); null otherwise.
 */
async function loadDom(): Promise<((html: string) => Document) | null> {
  const tryImport = async (name: string): Promise<Record<string, any> | null> => {
    try {
      return (await import(/* @vite-ignore */ name)) as Record<string, any>;
    } catch {
      return null;
    }
  };
  {
    const jsdom = await tryImport('jsdom');
    if (jsdom) return (html: string) => new jsdom.JSDOM(html, { runScripts: 'dangerously' }).window.document as Document;
    const happy = await tryImport('happy-dom');
    if (happy) {
      return (html: string) => {
        const window = new happy.Window({ settings: { enableJavaScriptEvaluation: true, suppressInsecureJavaScriptEnvironmentWarning: true } });
        window.document.write(html);
        return window.document as Document;
      };
    }
    return null;
  }
}
