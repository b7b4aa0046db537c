/** runner/write.ts: a stage's files are written all or nothing. */
import { existsSync, mkdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { writeChanges } from '../../runner/write.js';
import { project } from '../helpers/tmp.js';

describe('writeChanges', () => {
  it('writes every change', () => {
    const root = project({ 'a.js': 'old\n' });
    writeChanges(root, [
      { file: 'a.js', before: 'old\n', after: 'new\n' },
      { file: 'src/b.js', before: null, after: 'created\n' },
    ]);
    expect(readFileSync(path.join(root, 'a.js'), 'utf8')).toBe('new\n');
    expect(readFileSync(path.join(root, 'src/b.js'), 'utf8')).toBe('created\n');
  });

  it('puts back what it wrote when a later write fails, and names the file', () => {
    const root = project({ 'a.js': 'old\n' });
    mkdirSync(path.join(root, 'blocked')); // a folder where the stage wants a file
    expect(() =>
      writeChanges(root, [
        { file: 'a.js', before: 'old\n', after: 'new\n' },
        { file: 'c.js', before: null, after: 'created\n' },
        { file: 'blocked', before: null, after: 'x\n' },
      ]),
    ).toThrow(expect.objectContaining({ code: 'write-failed', message: expect.stringMatching(/^writing blocked failed .*the 2 files written before it were put back/) }));
    expect(readFileSync(path.join(root, 'a.js'), 'utf8')).toBe('old\n');
    expect(existsSync(path.join(root, 'c.js'))).toBe(false);
  });
});
