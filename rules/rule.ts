/**
 * The shape of a rule (DESIGN.md "Layout": one file per rule under `rules/checks/`): metadata a
 * report, the docs generator and the stage planner read, and `check(inventory)`, which yields
 * findings without ids (the runner gives each a stable id).
 */
import type { Finding, Inventory, Location, Severity, Stage } from '../analyzer/model.js';

/** What a rule is, for reports and `docs/rules/<id>.md`. */
export interface RuleMeta {
  /** Kebab-case, stable: it keys findings, docs and SARIF rule ids. */
  id: string;
  title: string;
  severity: Severity;
  stage: Stage;
  /** Whether the codemods of `stage` fix it unaided. */
  autoFixable: boolean;
  docs: {
    /** One paragraph: what the rule looks for and why it matters on Fastify. */
    summary: string;
    /** What to do (or what the stage does). */
    fix: string;
    /** Where the rule comes from: express-fastify-mapping.md section, Fastify or Express docs, issue. */
    source: string;
    /** A short Express snippet the rule flags, and what it becomes. */
    example: { express: string; fastify: string };
  };
}

/** A finding before the runner gives it an id and the rule's metadata. */
export interface FindingDraft {
  subject: string;
  message: string;
  fastify: string;
  location: Location;
  related?: Finding['related'];
  /** Overrides the rule's severity for this finding (e.g. a warning that is an error here). */
  severity?: Severity;
  /** Overrides the rule's stage (a catalogue entry says which stage replaces the thing). */
  stage?: Stage;
  /** Overrides whether the stage fixes it unaided (a finding in stage `manual` never is). */
  autoFixable?: boolean;
  /** Further caveats that apply, beyond the one in the message. */
  notes?: string[];
  appliesTo?: Finding['appliesTo'];
}

/** A rule: metadata and a pure check of the inventory. */
export interface Rule extends RuleMeta {
  check(inventory: Inventory): FindingDraft[];
}
