import { afterAll, describe, expect, test } from 'bun:test';
import { appendFile, readFile, stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { createNodeProcessRunner } from './node-process-runner.ts';
import { groupAlive, processTreeOf, uniqueSleep, waitFor } from '../../tests/helpers/process-probes.ts';

const runner = createNodeProcessRunner({ drainGraceMs: 500, tailPollMs: 20 });
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
});

async function workDir(files: Record<string, string> = {}, executables?: string[]) {
  const dir = await runner.makeWorkDir(files, executables);
  cleanups.push(dir.remove);
  return dir;
}


const env = { PATH: process.env.PATH ?? '/usr/bin:/bin' };

describe('spawn', () => {
  test('streams stdout and stderr lines, the last one without newline, and the exit code', async () => {
    const { path } = await workDir();
    const lines: string[] = [];
    const proc = await runner.spawn({
      argv: ['sh', '-c', 'echo one; echo two >&2; printf "par"; sleep 0.05; printf "tial\\nlast"; exit 3'],
      cwd: path,
      env,
      onLine: (source, line) => lines.push(`${source}:${line}`),
    });
    expect(proc.pid).toBeGreaterThan(0);
    expect(await proc.exited).toEqual({ code: 3, signal: null });
    expect(lines.filter((l) => l.startsWith('out:'))).toEqual(['out:one', 'out:partial', 'out:last']);
    expect(lines).toContain('err:two');
  });

  test('passes env and cwd', async () => {
    const { path } = await workDir({ 'here.txt': 'hi' });
    const lines: string[] = [];
    const proc = await runner.spawn({ argv: ['sh', '-c', 'echo "$GREETING"; cat here.txt'], cwd: path, env: { ...env, GREETING: 'hello' }, onLine: (_s, l) => lines.push(l) });
    await proc.exited;
    expect(lines).toEqual(['hello', 'hi']);
  });

  test('kill() signals the whole process group: the children die too', async () => {
    const { path } = await workDir();
    const lines: string[] = [];
    const proc = await runner.spawn({
      // The child outlives any wait below unless the signal reaches it.
      argv: ['sh', '-c', `sleep ${uniqueSleep()} & echo "child $!"; wait`],
      cwd: path,
      env,
      onLine: (_s, l) => lines.push(l),
    });
    await waitFor(() => lines.length > 0);
    const childPid = Number(lines[0]!.split(' ')[1]);
    expect(groupAlive(proc.pid)).toBe(true);
    proc.kill('SIGTERM');
    const exit = await proc.exited;
    expect(exit.signal).toBe('SIGTERM');
    await waitFor(() => !groupAlive(proc.pid));
    expect(() => process.kill(childPid, 0)).toThrow();
  });

  test('a leftover child holding the output open is killed after the drain grace', async () => {
    const { path } = await workDir();
    // Five minutes: longer than the test may take, so the run ends only if the grace kills the child.
    const leftover = uniqueSleep();
    const proc = await runner.spawn({ argv: ['sh', '-c', `sleep ${leftover} & echo done`], cwd: path, env, onLine: () => {} });
    expect((await proc.exited).code).toBe(0);
    await waitFor(() => !groupAlive(proc.pid));
    expect(processTreeOf(leftover)).toEqual([]);
  });

  test('a missing program rejects with a clear error, no crash', async () => {
    const { path } = await workDir();
    const attempt = runner.spawn({ argv: ['/nonexistent/tool-xyz', 'run'], cwd: path, env, onLine: () => {} });
    await expect(attempt).rejects.toThrow(/cannot start \/nonexistent\/tool-xyz.*not found/);
    await expect(runner.spawn({ argv: ['no-such-program-xyz'], cwd: path, env, onLine: () => {} })).rejects.toThrow(/not found/);
    await expect(runner.spawn({ argv: ['sh'], cwd: join(path, 'missing'), env, onLine: () => {} })).rejects.toThrow(/working directory/);
    await expect(runner.spawn({ argv: [], cwd: path, env, onLine: () => {} })).rejects.toThrow(/empty argv/);
  });

  test('a non-executable file is refused with permission denied', async () => {
    const { path } = await workDir({ 'script.sh': '#!/bin/sh\necho hi\n' });
    await expect(runner.spawn({ argv: [join(path, 'script.sh')], cwd: path, env, onLine: () => {} })).rejects.toThrow(
      /permission denied/,
    );
  });

  test('a consumer that throws does not crash the runner', async () => {
    const { path } = await workDir();
    const proc = await runner.spawn({
      argv: ['sh', '-c', 'echo a; echo b'],
      cwd: path,
      env,
      onLine: () => {
        throw new Error('consumer bug');
      },
    });
    expect((await proc.exited).code).toBe(0);
  });
});

describe('makeWorkDir', () => {
  test('a private directory with the files; executables runnable; remove() deletes it', async () => {
    const dir = await runner.makeWorkDir({ 'run.sh': '#!/bin/sh\necho ran "$1"\n', 'data/in.txt': 'x' }, ['run.sh']);
    expect((await stat(dir.path)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir.path, 'run.sh'))).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir.path, 'data/in.txt'))).mode & 0o777).toBe(0o600);
    expect(await readFile(join(dir.path, 'data/in.txt'), 'utf8')).toBe('x');
    const lines: string[] = [];
    const proc = await runner.spawn({ argv: [join(dir.path, 'run.sh'), 'ok'], cwd: dir.path, env, onLine: (_s, l) => lines.push(l) });
    await proc.exited;
    expect(lines).toEqual(['ran ok']);
    await dir.remove();
    await expect(stat(dir.path)).rejects.toThrow();
  });

  test('file names cannot escape the directory', async () => {
    await expect(runner.makeWorkDir({ '../evil': 'x' })).rejects.toThrow(/relative path inside/);
    await expect(runner.makeWorkDir({ '/etc/evil': 'x' })).rejects.toThrow(/relative path inside/);
  });
});

describe('tail', () => {
  test('follows appended lines, partial ones included, and stop() drains the rest', async () => {
    const { path } = await workDir();
    const file = join(path, 'samples.jsonl');
    const lines: string[] = [];
    const tail = runner.tail(file, (line) => lines.push(line));
    await Bun.sleep(50); // the file does not exist yet: the tail waits for it
    await writeFile(file, 'a\nb');
    await waitFor(() => lines.length === 1);
    expect(lines).toEqual(['a']);
    await appendFile(file, 'c\nd\n');
    await waitFor(() => lines.length === 3);
    expect(lines).toEqual(['a', 'bc', 'd']);
    await appendFile(file, 'e\nlast');
    await tail.stop();
    expect(lines).toEqual(['a', 'bc', 'd', 'e', 'last']);
  });

  test('stop() on a file that never appeared resolves', async () => {
    const { path } = await workDir();
    const lines: string[] = [];
    const tail = runner.tail(join(path, 'never'), (line) => lines.push(line));
    await tail.stop();
    expect(lines).toEqual([]);
  });
});

describe('which', () => {
  test('finds programs on PATH and checks explicit paths', async () => {
    const sh = await runner.which('sh');
    expect(sh).toMatch(/\/sh$/);
    expect(await runner.which(sh!)).toBe(sh);
    expect(await runner.which('no-such-program-xyz')).toBeNull();
    expect(await runner.which('/nonexistent/k6')).toBeNull();
    const { path } = await workDir({ 'plain.txt': 'x' });
    expect(await runner.which(join(path, 'plain.txt'))).toBeNull(); // not executable
  });
});
