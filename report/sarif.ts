/**
 * The SARIF 2.1.0 report of an Inventory's findings, for GitHub code scanning and other SARIF
 * viewers: one run whose driver lists every rule (a reportingDescriptor with its docs, level,
 * stage and whether a stage fixes it), one result per finding with its location relative to
 * `%SRCROOT%`, the related locations that explain it, and the finding id as partial fingerprint,
 * so an alert keeps its identity across runs and edits. What the analysis could not resolve goes
 * into the invocation's tool notifications, not into results.
 *
 * Validated in `test/report/sarif.test.ts` against the SARIF 2.1.0 JSON schema shipped by
 * `@microsoft/jest-sarif` (devDependency).
 */
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import type * as Sarif from 'sarif';
import type { Finding, Inventory, Location, Severity } from '../analyzer/model.js';
import type { RuleMeta } from '../rules/rule.js';
import { problemsAndNotes } from './shared.js';

/** `$schema` of the log: the SARIF 2.1.0 schema GitHub's documentation names. */
export const SARIF_SCHEMA_URI = 'https://json.schemastore.org/sarif-2.1.0.json';

/** `tool.driver.name`. */
export const SARIF_TOOL_NAME = 'express-to-fastify-migrate';

/** Key of the partial fingerprint that carries `Finding.id` (stable across runs and edits). */
export const FINGERPRINT_KEY = 'migrateFindingId/v1';

/** The uriBaseId every location is relative to: the repository root. */
export const SRCROOT = '%SRCROOT%';

/** Options of `renderSarif`; all optional, and without them the log depends only on its inputs. */
export interface SarifOptions {
  /**
   * Folder of the analysed project relative to `%SRCROOT%` (the repository root, which GitHub
   * resolves relative URIs against), POSIX; `''` (the default) when the project is the root. Use
   * it when the app lives in a subfolder or a workspace of a monorepo.
   */
  projectDir?: string;
  /** Absolute path of `%SRCROOT%` on this machine, recorded in `originalUriBaseIds`; omitted by
   * default so the log does not depend on the checkout. */
  srcRoot?: string;
  /** Absolute URI of the tool's home page (`tool.driver.informationUri`). */
  informationUri?: string;
  /**
   * Absolute URI that `docs/rules/<id>.md` is resolved against for each rule's `helpUri`
   * (e.g. the repository's blob URL with a trailing slash). SARIF requires `helpUri` to be an
   * absolute URI, so without it the rule carries no `helpUri` and names `docs/rules/<id>.md` in
   * its help text and in `properties.docs` instead.
   */
  docsBaseUri?: string;
  /** `runAutomationDetails.id` prefix: a category that keeps several apps' uploads apart. */
  category?: string;
  /** What the invocation record should say besides its notifications (times as ISO 8601 UTC). */
  invocation?: { commandLine?: string; startTimeUtc?: string; endTimeUtc?: string; workingDirectory?: string };
}

/** SARIF level of a severity: error → error, warning → warning, info → note. */
export function sarifLevel(severity: Severity): 'error' | 'warning' | 'note' {
  return severity === 'info' ? 'note' : severity;
}

/** The path of the rule's documentation page, relative to this tool's repository. */
export function ruleDocPath(ruleId: string): string {
  return `docs/rules/${ruleId}.md`;
}

/**
 * Renders the findings of `inventory` (none when the rules did not run) and the descriptors of
 * `rules` as a SARIF 2.1.0 log, pretty-printed JSON with a trailing newline.
 */
export function renderSarif(inventory: Inventory, rules: RuleMeta[], options: SarifOptions = {}): string {
  return JSON.stringify(buildSarif(inventory, rules, options), null, 2) + '\n';
}

/** The SARIF log `renderSarif` prints, as an object. */
export function buildSarif(inventory: Inventory, rules: RuleMeta[], options: SarifOptions = {}): Sarif.Log {
  const prefix = normalisePrefix(options.projectDir ?? '');
  const ruleIndex = new Map(rules.map((r, i) => [r.id, i]));
  const physical = (l: Location): Sarif.PhysicalLocation => physicalLocation(l, prefix);

  const driver: Sarif.ToolComponent = {
    name: SARIF_TOOL_NAME,
    version: inventory.tool.version,
    semanticVersion: inventory.tool.version,
    ...(options.informationUri ? { informationUri: options.informationUri } : {}),
    rules: rules.map((r) => reportingDescriptor(r, options.docsBaseUri)),
  };

  const results: Sarif.Result[] = (inventory.findings ?? []).map((f) => {
    const index = ruleIndex.get(f.rule);
    const result: Sarif.Result = {
      ruleId: f.rule,
      ...(index === undefined ? {} : { ruleIndex: index }),
      level: sarifLevel(f.severity),
      message: { text: findingText(f) },
      locations: [{ physicalLocation: physical(f.location) }],
      partialFingerprints: { [FINGERPRINT_KEY]: f.id },
      properties: { stage: f.stage, subject: f.subject, autoFixable: f.autoFixable },
    };
    if (f.related.length) result.relatedLocations = f.related.map((r, i) => ({ id: i + 1, message: { text: r.message }, physicalLocation: physical(r.location) }));
    return result;
  });

  const { problems } = problemsAndNotes(inventory);
  const invocation: Sarif.Invocation = {
    executionSuccessful: true,
    ...(options.invocation?.commandLine ? { commandLine: options.invocation.commandLine } : {}),
    ...(options.invocation?.startTimeUtc ? { startTimeUtc: options.invocation.startTimeUtc } : {}),
    ...(options.invocation?.endTimeUtc ? { endTimeUtc: options.invocation.endTimeUtc } : {}),
    ...(options.invocation?.workingDirectory ? { workingDirectory: { uri: directoryUri(options.invocation.workingDirectory) } } : {}),
    toolExecutionNotifications: problems.map((p) => ({
      descriptor: { id: p.code },
      level: sarifLevel(p.severity),
      message: { text: p.message },
      ...(p.location ? { locations: [{ physicalLocation: physical(p.location) }] } : {}),
    })),
  };

  const srcRoot: Sarif.ArtifactLocation = {
    ...(options.srcRoot ? { uri: directoryUri(options.srcRoot) } : {}),
    description: { text: prefix ? `The repository root; the analysed project is ${prefix.slice(0, -1)}.` : 'The root of the analysed project.' },
  };

  const run: Sarif.Run = {
    tool: { driver },
    ...(options.category ? { automationDetails: { id: `${options.category.replace(/\/+$/, '')}/` } } : {}),
    invocations: [invocation],
    originalUriBaseIds: { [SRCROOT]: srcRoot },
    columnKind: 'utf16CodeUnits',
    results,
    properties: {
      headline: inventory.summary.headline,
      complete: inventory.summary.complete,
      ...(inventory.readiness ? { readiness: inventory.readiness.overall } : {}),
    },
  };
  return { $schema: SARIF_SCHEMA_URI, version: '2.1.0', runs: [run] };
}

function reportingDescriptor(r: RuleMeta, docsBaseUri: string | undefined): Sarif.ReportingDescriptor {
  const doc = ruleDocPath(r.id);
  const helpUri = docsBaseUri ? new URL(doc, docsBaseUri).href : undefined;
  const ex = r.docs.example;
  const text = [r.docs.fix, '', 'Express:', indent(ex.express), '', 'Fastify:', indent(ex.fastify), '', `Source: ${r.docs.source}`, `Docs: ${helpUri ?? doc}`].join('\n');
  const markdown = [
    r.docs.fix,
    '',
    '**Express**',
    '',
    fence(ex.express),
    '',
    '**Fastify**',
    '',
    fence(ex.fastify),
    '',
    `Source: ${r.docs.source}`,
    '',
    `Docs: [${doc}](${helpUri ?? doc})`,
  ].join('\n');
  return {
    id: r.id,
    name: pascalCase(r.id),
    shortDescription: { text: r.title },
    fullDescription: { text: r.docs.summary },
    help: { text, markdown },
    ...(helpUri ? { helpUri } : {}),
    defaultConfiguration: { level: sarifLevel(r.severity) },
    properties: { stage: r.stage, autoFixable: r.autoFixable, docs: doc, tags: ['express-to-fastify', `stage:${r.stage}`] },
  };
}

/** The message of a finding with its Fastify form. */
function findingText(f: Finding): string {
  return f.fastify ? `${f.message} Fastify: ${f.fastify}` : f.message;
}

function physicalLocation(l: Location, prefix: string): Sarif.PhysicalLocation {
  const file = l.file.replace(/\\/g, '/');
  const artifactLocation: Sarif.ArtifactLocation = path.posix.isAbsolute(file) ? { uri: pathToFileURL(file).href } : { uri: uriReference(prefix + file.replace(/^\.\//, '')), uriBaseId: SRCROOT };
  return { artifactLocation, region: { startLine: Math.max(1, l.line), startColumn: Math.max(1, l.column) } };
}

/** A relative POSIX path as a URI reference: each segment percent-encoded, `/` kept. */
function uriReference(relPath: string): string {
  return relPath
    .split('/')
    .map((seg) => encodeURIComponent(seg).replace(/%(40|2B|2C|3B|3D|24|26)/g, (m) => decodeURIComponent(m)))
    .join('/');
}

/** `a/b` or `./a/b/` → `a/b/`; `''` or `.` → `''`. */
function normalisePrefix(dir: string): string {
  const posix = dir.replace(/\\/g, '/');
  const normal = path.posix.normalize(posix).replace(/\/+$/, '');
  const p = normal === '.' ? '' : normal;
  if (p === '..' || p.startsWith('../') || path.posix.isAbsolute(posix)) throw new Error(`projectDir must be relative to the repository root and inside it: ${dir}`);
  return p ? `${p}/` : '';
}

function directoryUri(dir: string): string {
  const href = pathToFileURL(path.resolve(dir)).href;
  return href.endsWith('/') ? href : `${href}/`;
}

function pascalCase(id: string): string {
  return id
    .split(/[^A-Za-z0-9]+/)
    .filter(Boolean)
    .map((w) => w[0].toUpperCase() + w.slice(1))
    .join('');
}

function indent(code: string): string {
  return code
    .split('\n')
    .map((l) => `    ${l}`)
    .join('\n');
}

function fence(code: string): string {
  const ticks = '`'.repeat(Math.max(3, ...[...code.matchAll(/`+/g)].map((m) => m[0].length + 1)));
  return `${ticks}js\n${code}\n${ticks}`;
}
