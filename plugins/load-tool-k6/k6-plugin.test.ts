/** The plugin's setup picks `--out loadplane` only for a k6 whose `k6 version` lists the loadplane output. */
import { afterAll, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Assignment, engineLocatorPort, loadToolCapability, silentLogger } from 'loadplane/plugin';
import { createEngineLocator, createKernel } from 'loadplane/plugin/testing';
import k6Plugin from './index.ts';

const dir = mkdtempSync(join(tmpdir(), 'k6-plugin-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** A stand-in k6 that prints what `k6 version` prints (k6 v1.8.1's format). */
function fakeK6(name: string, versionOutput: string): string {
  const path = join(dir, name);
  writeFileSync(path, `#!/bin/sh\ncat <<'OUT'\n${versionOutput}\nOUT\n`, { mode: 0o755 });
  return path;
}

const assignment: Assignment = {
  assignmentId: 'a',
  taskId: 't',
  testId: 'x',
  tool: 'k6',
  script: 'export default function () {}',
  config: null,
  machineIndex: 0,
  machineCount: 1,
};

async function argvWith(binary: string): Promise<string[]> {
  const kernel = await createKernel({
    plugins: [k6Plugin],
    logger: silentLogger,
    provided: [[engineLocatorPort, createEngineLocator({ env: { K6_BIN: binary, PATH: '/usr/bin:/bin' }, dir })]],
  });
  try {
    return kernel.getAll(loadToolCapability)[0]!.command(assignment).argv;
  } finally {
    await kernel.stop();
  }
}

test('our build (the extension listed): --out loadplane', async () => {
  const ours = fakeK6(
    'k6-ours',
    'k6 v1.8.1 (go1.26.8, linux/amd64)\nExtensions:\n  github.com/loadplane/xk6-output-loadplane (devel), loadplane [output]\n',
  );
  expect(await argvWith(ours)).toContain('loadplane');
});

test('a plain k6, or one with other extensions only: --out json', async () => {
  expect(await argvWith(fakeK6('k6-plain', 'k6 v1.8.1 (go1.26.8, linux/amd64)'))).toContain('json=samples.jsonl');
  const other = fakeK6('k6-other', 'k6 v1.8.1 (go1.26.8, linux/amd64)\nExtensions:\n  github.com/grafana/xk6-output-loadplaneish v0.1.0, loadplaneish [output]\n');
  expect(await argvWith(other)).toContain('json=samples.jsonl');
});
