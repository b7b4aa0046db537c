/** The tool's own version, read from its package.json (one place). */
import { readFileSync } from 'node:fs';

/** Version of express-to-fastify-migrate; works from source (vitest) and from dist/. */
export function toolVersion(): string {
  for (const rel of ['../package.json', '../../package.json']) {
    try {
      const pkg = JSON.parse(readFileSync(new URL(rel, import.meta.url), 'utf8')) as { name: string; version: string };
      if (pkg.name === 'express-to-fastify-migrate') return pkg.version;
    } catch {
      // try the next location
    }
  }
  return '0.0.0';
}
