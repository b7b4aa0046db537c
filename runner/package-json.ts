/**
 * package.json `dependencies` as part of a stage's change set: every package a step needs is
 * added, or raised when our range's minimum version is higher than the project's (semver); every
 * package a step took out of the code is removed; nothing else moves. Edits are textual (jsonc-parser), so key order, indentation, line endings
 * and the final newline of the file stay as they were; `devDependencies` are left alone. A file
 * written on one line stays on one line, with its own spacing (see `oneLine`).
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
  const merged = mergeText(text, pkg, changed);
  return { text: oneLine(text, merged) ?? merged, changed };
}

/**
 * Removes the packages `names` from the `dependencies` and `devDependencies` of the package.json
 * `text` (what a stage took out of the code: `express` at unshim), a section they leave empty with
 * them, keeping the rest of the text as it was (jsonc-parser edits). Returns the text and the names removed (those that were there).
 * @throws Error when `text` is not a JSON object
 */
export function removeDependencies(text: string, names: readonly string[]): { text: string; removed: string[] } {
  const pkg = jsonc.parse(text) as { dependencies?: Record<string, string>; devDependencies?: Record<string, string> } | undefined;
  if (!pkg || typeof pkg !== 'object' || Array.isArray(pkg)) throw new Error('package.json is not a JSON object');
  let out = text;
  const removed: string[] = [];
  for (const section of ['dependencies', 'devDependencies'] as const) {
    const present = names.filter((name) => pkg[section] && Object.hasOwn(pkg[section], name));
    if (!present.length) continue;
    // A section left empty goes too, as a package manager leaves it.
    const emptied = Object.keys(pkg[section]!).every((k) => present.includes(k));
    const paths = emptied ? [[section]] : present.map((name) => [section, name]);
    for (const at of paths) out = jsonc.applyEdits(out, jsonc.modify(out, at, undefined, { formattingOptions: formatting(out) }));
    for (const name of present) if (!removed.includes(name)) removed.push(name);
  }
  return { text: out, removed };
}

/** `text` with `changed` added to or raised in its `dependencies`, by jsonc-parser edits (which lay out what they touch over several lines). */
function mergeText(text: string, pkg: { dependencies?: Record<string, string> }, changed: Record<string, string>): string {
  const current = pkg.dependencies ?? {};
  const formattingOptions = formatting(text);
  let out = text;
  if (!pkg.dependencies) return jsonc.applyEdits(out, jsonc.modify(out, ['dependencies'], changed, { formattingOptions }));
  const sorted = isSorted(Object.keys(current));
  for (const [name, range] of Object.entries(changed)) {
    const edits = jsonc.modify(out, ['dependencies', name], range, {
      formattingOptions,
      getInsertionIndex: (keys) => (sorted ? insertionIndex(keys, name) : keys.length),
    });
    out = jsonc.applyEdits(out, edits);
  }
  return out;
}

/** The spacing of a one-line JSON text: after `:` and `,`, and inside non-empty `{}` and `[]`. */
interface OneLineStyle {
  colon: string;
  comma: string;
  brace: string;
  bracket: string;
}

/**
 * `merged` (the multi-line result) written back on one line in the spacing of `original`, when
 * `original` is one line of JSON that this spacing reproduces exactly (so nothing but the added
 * entries differs); null otherwise (a multi-line file, or one whose spacing is irregular).
 */
function oneLine(original: string, merged: string): string | null {
  const body = original.trim();
  if (body.includes('\n')) return null;
  const style = styleOf(body);
  if (write(JSON.parse(body), style) !== body) return null;
  const lead = original.slice(0, original.indexOf(body));
  return lead + write(JSON.parse(merged), style) + original.slice(lead.length + body.length);
}

function styleOf(body: string): OneLineStyle {
  const after = (re: RegExp) => re.exec(outsideStrings(body))?.[1];
  const colon = after(/:( *)/) ?? '';
  // An object of one entry shows no comma: a space after ':' suggests one after ',' too.
  return { colon, comma: after(/,( *)/) ?? colon, brace: after(/\{( *)[^ }]/) ?? '', bracket: after(/\[( *)[^ \]]/) ?? '' };
}

/** `body` with every string literal's content blanked, so punctuation inside strings is not read as JSON's. */
function outsideStrings(body: string): string {
  return body.replace(/"(?:[^"\\]|\\.)*"/g, '""');
}

/** `value` as one line of JSON in `style`. */
function write(value: unknown, style: OneLineStyle): string {
  if (Array.isArray(value)) return value.length ? `[${style.bracket}${value.map((v) => write(v, style)).join(`,${style.comma}`)}${style.bracket}]` : '[]';
  if (value && typeof value === 'object') {
    const entries = Object.entries(value).map(([k, v]) => `${JSON.stringify(k)}:${style.colon}${write(v, style)}`);
    return entries.length ? `{${style.brace}${entries.join(`,${style.comma}`)}${style.brace}}` : '{}';
  }
  return JSON.stringify(value);
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
