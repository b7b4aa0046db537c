/** Terminal conventions shared by commands: colour only on a TTY and never with NO_COLOR;
 * progress on stderr, only when it is a TTY and the run takes longer than a moment. */

export function useColor(stream: NodeJS.WriteStream = process.stdout): boolean {
  return Boolean(stream.isTTY) && !('NO_COLOR' in process.env);
}

/** Shows the latest progress message on stderr after 700 ms; `done()` clears it. */
export function progress(): { update: (message: string) => void; done: () => void } {
  let latest = '';
  let shown = false;
  const tty = Boolean(process.stderr.isTTY);
  const timer = setTimeout(() => {
    if (!tty || !latest) return;
    process.stderr.write(`${latest}…`);
    shown = true;
  }, 700);
  return {
    update: (m) => (latest = m),
    done: () => {
      clearTimeout(timer);
      if (shown) process.stderr.write('\r\x1b[K');
    },
  };
}
