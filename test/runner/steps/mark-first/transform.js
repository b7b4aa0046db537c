/** Test transform: one behaviour per marker (../README.md). */
export default function transform(file, api, options) {
  const entries = options.plan?.entries ?? [];
  if (entries.includes('create')) return file.source === '' ? "module.exports = 'created';\n" : null;
  if (entries.includes('throw')) throw new Error('boom from a test transform');
  if (entries.includes('broken')) return `${file.source}\nconst = ;\n`;
  if (entries.includes('same')) return file.source;
  if (entries.includes('null')) return null;
  let out = file.source;
  if (entries.includes('append') && !out.includes("console.log('first')")) {
    const j = api.jscodeshift;
    const root = j(out);
    root.find(j.Program).get('body').push(j.expressionStatement(j.callExpression(j.memberExpression(j.identifier('console'), j.identifier('log')), [j.stringLiteral('first')])));
    out = root.toSource({ quote: 'single' });
  }
  if (entries.includes('droproute')) out = out.split('\n').filter((line) => !line.includes('app.get(')).join('\n');
  if (entries.includes('duproute')) out = out.replace(/^(app\.get\(.*)$/m, '$1\n$1');
  if (entries.includes('typeerror') && !out.includes('const introduced')) out = `${out}const introduced: number = 'text';\n`;
  if (entries.includes('todo') && !out.includes('TODO(migrate)')) out = `${out}// TODO(migrate): check this by hand\n`;
  return out === file.source ? null : out;
}
