/**
 * What a static folder holds on disk at plan time, as the URLs serve-static answers from it
 * (serve-static 1.16 / 2.2 over send 0.19 / 1.2): a file at `<mount>/<path>`, also without one of
 * the `extensions` the mount tries, a folder's index at `<mount>/<folder>/`, and a folder itself
 * (`<mount>/<folder>`, redirected to `<folder>/` when `redirect` is on). The plugins-static planner
 * compares these URLs with the app's routes (server-module/static-files.ts).
 */
import { existsSync, readdirSync, statSync } from 'node:fs';
import path from 'node:path';

/** A file or folder of the static folder, POSIX and relative to it (`css/site.css`, `docs`). */
export interface FolderEntry {
  path: string;
  folder: boolean;
}

/** Every file and folder under `dir` (absolute), sorted; symbolic links followed as send follows them; [] when `dir` is not a folder. */
export function folderEntries(dir: string): FolderEntry[] {
  if (!existsSync(dir) || !statSync(dir).isDirectory()) return [];
  const out: FolderEntry[] = [];
  const walk = (sub: string) => {
    for (const name of readdirSync(path.join(dir, sub)).sort()) {
      const rel = sub ? `${sub}/${name}` : name;
      const folder = statSync(path.join(dir, rel)).isDirectory();
      out.push({ path: rel, folder });
      if (folder) walk(rel);
    }
  };
  walk('');
  return out;
}

/** The options of the mount that decide which URLs answer from the folder (serve-static's defaults when absent). */
export interface ServedBy {
  /** serve-static `index` (default `index.html`; false: none). */
  index?: unknown;
  /** serve-static `extensions` (default none). */
  extensions?: unknown;
  /** serve-static `redirect` (default true). */
  redirect?: unknown;
  /** Whether a path with a dot segment is served (dotfiles `allow`). */
  dotfiles: boolean;
}

/**
 * The URL paths (without trailing slash, as Express matches them by default) under which the mount
 * at `mount` answers from `entries`, each with the entry that answers it.
 */
export function servedUrls(mount: string, entries: FolderEntry[], by: ServedBy): Array<{ url: string; entry: string }> {
  const base = mount === '/' ? '' : mount;
  const index = by.index === false ? [] : by.index === undefined ? ['index.html'] : ([] as unknown[]).concat(by.index).map(String);
  const extensions = Array.isArray(by.extensions) ? by.extensions.map(String) : typeof by.extensions === 'string' ? [by.extensions] : [];
  const out: Array<{ url: string; entry: string }> = [];
  const shown = by.dotfiles ? entries : entries.filter((e) => !e.path.split('/').some((s) => s.startsWith('.')));
  if (by.redirect !== false && base) out.push({ url: base, entry: '.' });
  for (const e of shown) {
    if (e.folder) {
      if (by.redirect !== false) out.push({ url: `${base}/${e.path}`, entry: e.path });
      continue;
    }
    out.push({ url: `${base}/${e.path}`, entry: e.path });
    const ext = extensions.find((x) => e.path.endsWith(`.${x}`));
    if (ext) out.push({ url: `${base}/${e.path.slice(0, -ext.length - 1)}`, entry: e.path });
    const name = path.posix.basename(e.path);
    if (index.includes(name)) out.push({ url: `${base}/${path.posix.dirname(e.path)}`.replace(/\/\.$/, '') || '/', entry: e.path });
  }
  return out;
}

/** The index files directly in the folder (`index.html` at its root), which answer `<mount>/`. */
export function rootIndexes(entries: FolderEntry[], index: unknown): string[] {
  const names = index === false ? [] : index === undefined ? ['index.html'] : ([] as unknown[]).concat(index).map(String);
  return entries.filter((e) => !e.folder && names.includes(e.path)).map((e) => e.path);
}

/** Files inside a dot-folder whose own name has no leading dot (`.well-known/security.txt`), which send 0.19 serves by default. */
export function filesInDotFolders(entries: FolderEntry[]): string[] {
  return entries.filter((e) => !e.folder && !path.posix.basename(e.path).startsWith('.') && e.path.split('/').slice(0, -1).some((s) => s.startsWith('.'))).map((e) => e.path);
}
