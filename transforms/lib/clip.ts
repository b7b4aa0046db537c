/** Source text shortened for a one-line reason in a stage's summary. */

/** The first line of `text`, at most 60 characters, with `…` when anything was cut. */
export function clip(text: string): string {
  const line = text.split('\n')[0];
  return line.length > 60 || line !== text ? `${line.slice(0, 60)}…` : line;
}
