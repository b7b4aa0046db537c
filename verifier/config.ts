/**
 * `.migrate/config.json`: the project's defaults for every command (DESIGN.md "Files the tool
 * keeps in the user's repo"), written by `migrate init`. Command-line flags win over it.
 */
import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv } from 'ajv';
import { writeFileAtomic } from './files.js';

/** Where the tool keeps its files, relative to the project root. */
export const MIGRATE_DIR = '.migrate';

/** One side of a replay: how to start it. Paths are relative to the project root. */
export interface LaneConfig {
  /** Module to run (it listens, or exports an app, a Fastify instance or a factory). */
  entry?: string;
  envFile?: string;
  /** Shell command run before the lane starts, e.g. to reset a database file. */
  setup?: string;
}

/**
 * The config file. `parity`: `client` (default) fails the gate on what a client can notice;
 * `express` also fails it on framework deltas (DESIGN.md "Behaviour parity").
 */
export interface MigrateConfig {
  entry?: string;
  /** `copyIgnored`: git-ignored paths (relative to the app) copied into a checked-out baseline besides `.env*`. */
  baseline?: LaneConfig & { ref?: string; dir?: string; copyIgnored?: string[] };
  candidate?: LaneConfig;
  recordings?: string[];
  parity?: 'client' | 'express';
  credentials?: string;
  rules?: string;
}

const laneSchema = {
  type: 'object',
  additionalProperties: false,
  properties: { entry: { type: 'string' }, envFile: { type: 'string' }, setup: { type: 'string' } },
};

const schema = {
  type: 'object',
  additionalProperties: false,
  properties: {
    $schema: { type: 'string' },
    entry: { type: 'string' },
    baseline: { ...laneSchema, properties: { ...laneSchema.properties, ref: { type: 'string' }, dir: { type: 'string' }, copyIgnored: { type: 'array', items: { type: 'string' } } } },
    candidate: laneSchema,
    recordings: { type: 'array', items: { type: 'string' } },
    parity: { enum: ['client', 'express'] },
    credentials: { type: 'string' },
    rules: { type: 'string' },
  },
};

const validate = new Ajv({ allErrors: true }).compile<MigrateConfig>(schema);

/** Path of the config file under `root`. */
export function configPath(root: string): string {
  return path.join(root, MIGRATE_DIR, 'config.json');
}

/**
 * Reads `.migrate/config.json` under `root`; no file → `{}`.
 * @throws Error naming the file and each invalid field (JSON path) when it is not valid
 */
export function loadConfig(root: string): MigrateConfig {
  const file = configPath(root);
  if (!existsSync(file)) return {};
  let json: unknown;
  try {
    json = JSON.parse(readFileSync(file, 'utf8'));
  } catch (e) {
    throw new Error(`${file}: not valid JSON (${(e as Error).message})`);
  }
  if (!validate(json)) {
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '/'} ${e.message}${e.params && 'additionalProperty' in e.params ? ` (${e.params.additionalProperty})` : ''}`);
    throw new Error(`${file}: ${problems.join('; ')}`);
  }
  return json;
}

/** Writes the config atomically (two-space JSON), creating `.migrate/`. */
export function saveConfig(root: string, config: MigrateConfig): string {
  const file = configPath(root);
  writeFileAtomic(file, JSON.stringify(config, null, 2) + '\n');
  return file;
}
