/**
 * package.json `dependencies` as part of a stage's change set: every package a step needs is
 * added, or raised when our range's minimum version is higher than the project's (semver), and
 * nothing else moves. Edits are textual (jsonc-parser), so key order, indentation, line endings
 * and the final newline of the file stay as they were; `devDependencies` are left alone.
 */
import jsonc from 'jsonc-parser';
import semver from 'semver';

/** The merged text and the entries that were added or raised (package → range). */
export interface MergedDependencies {
  text: string;
  changed: Record<string, string>;
}

/**
 * Merges `wanted` (package → range) into the `dependencies` of the package.json `text`. A
 * project range that is not a semver range (a tag, URL or `workspace:` protocol) is kept. New
 * entries go in alphabetical place when the existing entries are sorted (as npm writes them),
 * else at the end.
 * @throws Error when `text` is not a JSON object
 */
export function mergeDependencies(text: string, wanted: Record<string, string>): MergedDependencies {
  const pkg = jsonc.parse(text) as { dependencies?: Record<string, string> } | undefined;
  if (!pkg || typeof pkg !== 'object' || Array.isArray(pkg)) throw new Error('package.json is not a JSON object');
  const current = pkg.dependencies ?? {};
  const changed: Record<string, string> = {};
  for (const name of Object.keys(wanted).sort()) {
    const have = current[name];
    if (have === undefined || raises(have, wanted[name])) changed[name] = wanted[name];
  }
  if (Object.keys(changed).length === 0) return { text, changed };
  const formattingOptions = formatting(text);
  let out = text;
  if (!pkg.dependencies) {
    out = jsonc.applyEdits(out, jsonc.modify(out, ['dependencies'], changed, { formattingOptions }));
    return { text: out, changed };
  }
  const sorted = isSorted(Object.keys(current));
  for (const [name, range] of Object.entries(changed)) {
    const edits = jsonc.modify(out, ['dependencies', name], range, {
      formattingOptions,
      getInsertionIndex: (keys) => (sorted ? insertionIndex(keys, name) : keys.length),
    });
    out = jsonc.applyEdits(out, edits);
  }
  return { text: out, changed };
}

/** Whether `ours`'s minimum version is higher than `theirs`'s (false when either is not a semver range). */
function raises(theirs: string, ours: string): boolean {
  if (!semver.validRange(theirs) || !semver.validRange(ours)) return false;
  const a = semver.minVersion(theirs);
  const b = semver.minVersion(ours);
  return Boolean(a && b && semver.gt(b, a));
}

function isSorted(keys: string[]): boolean {
  return keys.every((k, i) => i === 0 || keys[i - 1].localeCompare(k, 'en') <= 0);
}

function insertionIndex(keys: string[], name: string): number {
  const i = keys.findIndex((k) => k.localeCompare(name, 'en') > 0);
  return i === -1 ? keys.length : i;
}

/** The file's indentation (first indented line) and line ending, for the inserted text. */
function formatting(text: string): jsonc.FormattingOptions {
  const indent = /^([ \t]+)\S/m.exec(text)?.[1] ?? '  ';
  return { insertSpaces: !indent.includes('\t'), tabSize: indent.includes('\t') ? 1 : indent.length, eol: text.includes('\r\n') ? '\r\n' : '\n' };
}
