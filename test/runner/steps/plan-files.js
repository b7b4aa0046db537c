// Lists the project's source files holding `marker` (test-only steps read the folder themselves).
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';

/** POSIX paths (relative to root) of .js/.ts files whose text contains `marker`, sorted. */
export function filesWith(root, marker) {
  const out = [];
  const walk = (sub) => {
    for (const name of readdirSync(path.join(root, sub))) {
      if (name === 'node_modules' || name.startsWith('.')) continue;
      const rel = sub ? `${sub}/${name}` : name;
      if (statSync(path.join(root, rel)).isDirectory()) walk(rel);
      else if (/\.[cm]?[jt]sx?$/.test(name) && readFileSync(path.join(root, rel), 'utf8').includes(marker)) out.push(rel);
    }
  };
  walk('');
  return out.sort();
}
