/**
 * JUnit XML of `migrate verify` (junit-report-builder): one test suite per route; one failing
 * test case per exchange with regressions (the message lists the top differences), one skipped
 * case per exchange that could not be verified, and one passing case per route standing for its
 * passing, noise, delta and accepted exchanges (passes are counted, not stored).
 */
import junitModule, { type Builder } from 'junit-report-builder';
import { clipPath, show } from './report-text.js';
import { NO_ROUTE, type Verdict } from './verdict.js';

/** The package is CommonJS typed as ESM: its default import is the builder at run time. */
const junit = ((junitModule as unknown as { default?: Builder }).default ?? junitModule) as Builder;

/** Renders `verdict` as JUnit XML. */
export function renderVerifyJunit(verdict: Verdict): string {
  const builder = junit.newBuilder();
  for (const route of verdict.routes) {
    const suite = builder.testSuite().name(route.route);
    for (const x of verdict.exchanges.filter((e) => (e.route ?? NO_ROUTE) === route.route)) {
      const name = `${x.id} ${x.method} ${clipPath(x.path)}${x.comment ? ` — ${x.comment}` : ''}`;
      if (x.outcome === 'regression') {
        const lines = x.regressions.slice(0, 10).map((d) => `${d.pointer} ${d.kind}: ${show(d)}${d.cause ? ` [${d.cause}]` : ''}`);
        suite.testCase().className(route.route).name(name).failure(`${x.status.baseline} → ${x.status.candidate ?? 'no answer'}\n${lines.join('\n')}`, 'regression');
      } else if (x.outcome === 'unverified') suite.testCase().className(route.route).name(name).skipped().standardOutput(x.note ?? '');
    }
    const fine = route.requests - route.regression - route.unverified;
    if (fine) suite.testCase().className(route.route).name(`${fine} request${fine === 1 ? '' : 's'} without regressions (${route.pass} pass, ${route.delta} framework delta, ${route.noise} noise, ${route.accepted} accepted)`);
  }
  return builder.build();
}
