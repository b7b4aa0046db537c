/**
 * The package versions the codemods write into a migrated app's package.json, as data. A codemod
 * never writes a package that is not listed here: `versionOf` throws for it, so adding a package
 * to a transform means adding it here first (with the date it was checked).
 *
 * How the ranges were chosen (checked on 2026-11-30 with `npm view <pkg> version engines
 * peerDependencies`, `npm pack` of every plugin and an install + smoke test on Node 20.20.2):
 * - Fastify plugins: a caret range of the current major, floored at the current version. Every
 *   listed plugin declares `fastify: '5.x'` to fastify-plugin (the check that throws
 *   FST_ERR_PLUGIN_VERSION_MISMATCH); `@fastify/passport` declares no fastify-plugin range and
 *   has `fastify ^5.0.0` as a dev dependency. None declares `engines` or `peerDependencies`.
 * - Helper packages the generated code imports (`qs`, `encodeurl`, …): the newest major that
 *   still supports Node 20 — several current majors declare `engines: { node: '>=22' }`
 *   (encodeurl 3, content-disposition 3, range-parser 2, etag 2), and the toolkit targets apps on
 *   Node 20 (package.json `engines: >=20.19`).
 * - Transitive engines we cannot choose: `fastify` itself (through light-my-request) and
 *   `@fastify/cookie` ≥ 11.1.1 depend on `cookie@^2`, an ESM-only package that declares
 *   `node >=22`; `@fastify/static` 10.1.x depends on `content-disposition@^3` (same). They load
 *   on Node ≥ 20.19 (unflagged `require(esm)`) and npm prints an EBADENGINE warning; an install
 *   with `--engine-strict` fails. Recorded in `note` on the affected entries.
 *
 * Sources: express-fastify-mapping.md §0 (the plugin lines it was written against), §3, §4.1
 * (`@fastify/express` 4.0.7 is the target); the npm registry on the `checked` date.
 */
export interface PackageVersion {
  /** npm package name. */
  package: string;
  /** The semver range written into package.json (`dependencies`). */
  range: string;
  /** ISO date (YYYY-MM-DD) the range was last checked against the registry. */
  checked: string;
  /** Why the range is what it is, when not simply "caret of the current major". */
  note?: string;
}

const CHECKED = '2026-11-30';

/** Every package a codemod may write, keyed by package name. */
export const VERSIONS = {
  fastify: {
    package: 'fastify',
    range: '^5.12.8',
    checked: CHECKED,
    note: 'Floor 5.12.8: `routerOptions` (≥5.5), `handlerTimeout` (≥5.8), 414 for long params (≥5.9) are what the codemods emit; numeric `trustProxy` hop counts are rejected from 5.12.1. Pulls cookie@2 (declares node >=22; loads on 20.19+).',
  },
  '@fastify/express': {
    package: '@fastify/express',
    range: '^4.0.7',
    checked: CHECKED,
    note: '4.0.5+ bundles express ^5.2.1 (the bridge runs Express 5 semantics); 4.0.7 carries the prefix-rewriting fix GHSA-3wf5-7852-vcfq (mapping §4.1).',
  },
  '@fastify/middie': { package: '@fastify/middie', range: '^9.3.6', checked: CHECKED },
  'fastify-plugin': { package: 'fastify-plugin', range: '^6.0.1', checked: CHECKED },
  '@fastify/static': {
    package: '@fastify/static',
    range: '^10.1.11',
    checked: CHECKED,
    note: 'Depends on content-disposition@^3 (declares node >=22; loads on 20.19+): `reply.download` writes token filenames unquoted (`filename=user.html`).',
  },
  '@fastify/view': {
    package: '@fastify/view',
    range: '^12.0.0',
    checked: CHECKED,
    note: 'Still built on fastify-plugin 5 (declares fastify 5.x). The engine package (ejs, pug, handlebars, nunjucks, …) stays the app’s own dependency.',
  },
  '@fastify/cors': { package: '@fastify/cors', range: '^11.4.3', checked: CHECKED },
  '@fastify/helmet': { package: '@fastify/helmet', range: '^13.2.0', checked: CHECKED },
  '@fastify/compress': { package: '@fastify/compress', range: '^9.2.0', checked: CHECKED },
  '@fastify/cookie': {
    package: '@fastify/cookie',
    range: '^11.1.5',
    checked: CHECKED,
    note: '11.1.1+ depends on cookie@^2 (ESM-only, declares node >=22; loads on Node 20.19+ through require(esm), npm warns EBADENGINE). 11.1.0 was the last on cookie@1, but a range cannot hold a transitive version and fastify itself pulls cookie@2.',
  },
  '@fastify/session': { package: '@fastify/session', range: '^11.1.3', checked: CHECKED },
  '@fastify/secure-session': {
    package: '@fastify/secure-session',
    range: '^8.4.0',
    checked: CHECKED,
    note: 'Depends on sodium-native ^5 (prebuilt binaries; no compiler needed on common platforms).',
  },
  '@fastify/flash': { package: '@fastify/flash', range: '^6.0.5', checked: CHECKED },
  '@fastify/multipart': { package: '@fastify/multipart', range: '^10.1.9', checked: CHECKED },
  '@fastify/rate-limit': { package: '@fastify/rate-limit', range: '^11.2.0', checked: CHECKED },
  '@fastify/swagger': { package: '@fastify/swagger', range: '^9.9.3', checked: '2026-12-07' },
  '@fastify/swagger-ui': { package: '@fastify/swagger-ui', range: '^6.1.3', checked: '2026-12-07', note: 'Depends on @fastify/static ^10.1.0 and fastify-plugin ^6.' },
  '@fastify/passport': {
    package: '@fastify/passport',
    range: '^4.0.3',
    checked: CHECKED,
    note: 'Depends on @fastify/flash ^6. Decorates `request.user`, as does @fastify/jwt: both in one instance fail with FST_ERR_DEC_ALREADY_PRESENT (set @fastify/jwt `decoratorName`).',
  },
  '@fastify/csrf-protection': { package: '@fastify/csrf-protection', range: '^8.0.2', checked: CHECKED },
  '@fastify/formbody': {
    package: '@fastify/formbody',
    range: '^9.0.1',
    checked: CHECKED,
    note: '9.0 only renamed the entry file and moved to fastify-plugin 6; parser and options are those of 8.0.2, which the mapping describes.',
  },
  '@fastify/etag': { package: '@fastify/etag', range: '^6.2.0', checked: CHECKED },
  '@fastify/jwt': { package: '@fastify/jwt', range: '^10.2.8', checked: CHECKED },
  '@fastify/sensible': { package: '@fastify/sensible', range: '^6.0.6', checked: CHECKED },
  '@fastify/under-pressure': { package: '@fastify/under-pressure', range: '^9.2.0', checked: CHECKED },
  '@fastify/accepts': { package: '@fastify/accepts', range: '^5.0.6', checked: CHECKED },
  qs: {
    package: 'qs',
    range: '^6.17.1',
    checked: CHECKED,
    note: 'For Express 4 query parsing (`routerOptions.querystringParser`) and `urlencoded({ extended: true })` bodies.',
  },
  finalhandler: {
    package: 'finalhandler',
    range: '^2.1.1',
    checked: CHECKED,
    note: "Express's own 404/500 pages for `--parity express` (Express 5 depends on ^2.1.0, Express 4 on ~1.3.1; both write the same pages). Declares node >= 18.",
  },
  '@types/finalhandler': {
    package: '@types/finalhandler',
    range: '^1.2.4',
    checked: '2026-12-02',
    note: "Types of finalhandler for TypeScript apps whose generated module imports it (`--parity express`): finalhandler ships none. The 1.x types describe 2.x's call (req, res, options) too.",
  },
  encodeurl: {
    package: 'encodeurl',
    range: '^2.0.3',
    checked: CHECKED,
    note: '3.x declares node >=22; 2.x is what Express 5 uses and encodes the same way.',
  },
  '@types/encodeurl': {
    package: '@types/encodeurl',
    range: '^1.0.3',
    checked: CHECKED,
    note: 'Types of encodeurl for TypeScript apps whose moved handlers encode a Location (`res.location`, `res.redirect`): encodeurl ships none.',
  },
  'content-disposition': {
    package: 'content-disposition',
    range: '^0.5.4',
    checked: CHECKED,
    note: "The line Express 4 (≥4.10) depends on (`~0.5.4` in 4.22), for the routes stage's `res.attachment(name)` on Express 4 apps: the same `contentDisposition(name)` gives the same header for every name. 1.0.x prints the same (fuzzed); 1.1 reads a backslash as a path separator (`a\\b.txt` → `filename=\"b.txt\"`); 2.x (Express 5.3) writes token names unquoted and exports `create`; 3.x declares node >=22.",
  },
  '@types/content-disposition': {
    package: '@types/content-disposition',
    range: '^0.5.9',
    checked: CHECKED,
    note: 'Types of content-disposition 0.5 for TypeScript apps whose moved handlers call it (`res.attachment`): the package ships none.',
  },
  '@types/ejs': {
    package: '@types/ejs',
    range: '^3.1.5',
    checked: CHECKED,
    note: 'Types of ejs for TypeScript apps whose server module imports it to register @fastify/view (transforms/plugin-registrations/view.ts): ejs ships none.',
  },
  '@types/pug': {
    package: '@types/pug',
    range: '^2.0.10',
    checked: CHECKED,
    note: 'Types of pug 3 (the latest @types line is 2.x) for TypeScript apps whose server module imports it to register @fastify/view: pug ships none.',
  },
  'mime-types': { package: 'mime-types', range: '^3.0.2', checked: CHECKED, note: 'Declares node >=18.' },
  fresh: { package: 'fresh', range: '^2.0.0', checked: CHECKED },
  'range-parser': { package: 'range-parser', range: '^1.3.0', checked: CHECKED, note: '2.x declares node >=22.' },
  etag: {
    package: 'etag',
    range: '^1.8.1',
    checked: CHECKED,
    note: 'For the Express-identical weak ETag shim (framework-defaults `etag`); 2.x declares node >=22.',
  },
} as const satisfies Record<string, PackageVersion>;

/** A package the codemods may write. */
export type VersionedPackage = keyof typeof VERSIONS;

/** Whether `pkg` is in the table. */
export function isVersioned(pkg: string): pkg is VersionedPackage {
  return Object.hasOwn(VERSIONS, pkg);
}

/**
 * The range to write for `pkg` (e.g. `versionOf('fastify')` → `^5.12.8`). Throws for a package
 * that is not in the table, so a codemod can never write an unlisted (unchecked) package.
 */
export function versionOf(pkg: string): string {
  if (!isVersioned(pkg)) {
    throw new Error(`No version catalogued for package "${pkg}": add it to rules/catalogue/versions.ts (checked against the registry) before a codemod writes it.`);
  }
  return VERSIONS[pkg].range;
}
