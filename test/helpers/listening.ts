/**
 * An app under test in a process of its own: `node <args>` in `cwd` with PORT=0 and
 * NODE_ENV=production, ready once it prints `listening <port>` (as the run-time fixtures' start
 * files do). `stopAll` kills every child still running (call it in afterAll).
 */
import { spawn, type ChildProcess } from 'node:child_process';

const children: ChildProcess[] = [];

/**
 * Starts the app and resolves with its process and port.
 * @throws (rejects) when it exits first, or prints no port within 15 s (its output in the message)
 */
export function startListening(cwd: string, args: string[]): Promise<{ child: ChildProcess; port: number }> {
  const child = spawn(process.execPath, args, { cwd, env: { ...process.env, PORT: '0', NODE_ENV: 'production' }, stdio: ['ignore', 'pipe', 'pipe'] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let out = '';
    let err = '';
    const timer = setTimeout(() => reject(new Error(`no port from ${args.join(' ')} in ${cwd}: ${out}${err}`)), 15_000);
    child.stdout!.on('data', (chunk) => {
      out += chunk;
      const m = /listening (\d+)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolve({ child, port: Number(m[1]) });
      }
    });
    child.stderr!.on('data', (chunk) => (err += chunk));
    child.on('exit', (code) => reject(new Error(`${args.join(' ')} exited with ${code}: ${err}`)));
  });
}

/** Kills every app `startListening` started that is still running. */
export function stopAll(): void {
  for (const child of children) if (child.exitCode === null) child.kill();
}
