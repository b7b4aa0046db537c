// The baseline of bench/transform.ts: a jscodeshift transform that parses every file with the
// parser `migrate run` would choose for it (ts for .ts, babel for .js) and prints it, with no edits.
module.exports = function noop(file, api) {
  const j = api.jscodeshift.withParser(file.path.endsWith('.ts') ? 'ts' : 'babel');
  return j(file.source).toSource();
};
