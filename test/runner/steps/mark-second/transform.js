/** Test transform: appends console.log('second') after mark-first's line (proves the order). */
export default function transform(file) {
  if (!file.source.includes("console.log('first')") || file.source.includes("console.log('second')")) return null;
  return file.source.replace("console.log('first');\n", "console.log('first');\nconsole.log('second');\n");
}
