/**
 * The plugin's setup adds Loadplane's listener only to the JMeter `scripts/install-engines jmeter` assembled, as its
 * marker beside the listener's jar says; any other JMeter (PATH, or the marker missing) runs with the JTL stream.
 */
import { afterAll, expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { type Assignment, engineLocatorPort, loadToolCapability, silentLogger } from 'loadplane/plugin';
import { createEngineLocator, createKernel } from 'loadplane/plugin/testing';
import { httpPlan } from './http-plan.ts';
import jmeterPlugin from './index.ts';
import { jmeterVersion } from './engine.ts';
import { metricsListenerClass, metricsListenerMarker } from './metrics-listener.ts';

const root = mkdtempSync(join(tmpdir(), 'jmeter-plugin-'));
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** An engines directory with a stand-in JMeter assembly, with or without the listener's marker. */
function enginesDir(name: string, marker: string | null): string {
  const dir = join(root, name);
  const home = join(dir, `jmeter/${jmeterVersion}`);
  mkdirSync(join(home, 'bin'), { recursive: true });
  mkdirSync(join(home, 'lib/ext'), { recursive: true });
  writeFileSync(join(home, 'bin/jmeter'), '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  writeFileSync(join(home, 'version'), `${jmeterVersion}\n`);
  if (marker !== null) writeFileSync(join(home, metricsListenerMarker), marker);
  return dir;
}

const assignment: Assignment = {
  assignmentId: 'a',
  taskId: 't',
  testId: 'x',
  tool: 'jmeter',
  script: httpPlan({ url: 'http://127.0.0.1:1/' }),
  config: null,
  machineIndex: 0,
  machineCount: 1,
};

async function commandWith(dir: string, env: Record<string, string> = {}) {
  const kernel = await createKernel({
    plugins: [jmeterPlugin],
    logger: silentLogger,
    provided: [[engineLocatorPort, createEngineLocator({ env: { PATH: '/usr/bin:/bin', ...env }, dir })]],
  });
  try {
    return kernel.getAll(loadToolCapability)[0]!.command(assignment);
  } finally {
    await kernel.stop();
  }
}

test('our assembly (the marker names the listener): the plan gets the listener, no JTL', async () => {
  const command = await commandWith(enginesDir('ours', 'loadplane-metrics 0123456789abcdef\n'));
  expect(command.argv[0]).toEndWith(`jmeter/${jmeterVersion}/bin/jmeter`);
  expect(command.argv).not.toContain('/dev/fd/3');
  expect(command.files!['plan.jmx']).toContain(`testclass="${metricsListenerClass}"`);
});

test('no marker (an older install), or a JMeter elsewhere: the JTL stream, the plan as written', async () => {
  const older = await commandWith(enginesDir('older', null));
  expect(older.argv).toContain('/dev/fd/3');
  expect(older.files!['plan.jmx']).toBe(assignment.script);
  const elsewhere = join(root, 'elsewhere-jmeter');
  writeFileSync(elsewhere, '#!/bin/sh\nexit 0\n', { mode: 0o755 });
  const other = await commandWith(enginesDir('other', 'loadplane-metrics 0123456789abcdef\n'), { JMETER_BIN: elsewhere });
  expect(other.argv).toContain(elsewhere);
  expect(other.argv).toContain('/dev/fd/3');
});
