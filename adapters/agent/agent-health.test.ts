/** `loadplane agent --health`: healthy only while a live agent on the state directory is registered and keeps writing. */
import { afterEach, beforeEach, expect, test } from 'bun:test';
import { existsSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkAgentHealth, recordAgentHealth } from './agent-health.ts';

let dir: string;
beforeEach(() => (dir = mkdtempSync(join(tmpdir(), 'loadplane-agent-health-'))));
afterEach(() => rmSync(dir, { recursive: true, force: true }));

test('unhealthy while connecting, healthy once registered, and no record after stop()', async () => {
  let registered = false;
  const health = recordAgentHealth(dir, { isConnected: () => registered, machineId: () => (registered ? 'machine-1' : null) });
  expect(checkAgentHealth(dir)).toEqual({ healthy: false, message: expect.stringContaining('not registered') });
  expect(statSync(join(dir, 'health.json')).mode & 0o777).toBe(0o600);
  registered = true;
  // The recorder looks every second and writes when the registration changes.
  const deadline = Date.now() + 5_000;
  while (!checkAgentHealth(dir).healthy && Date.now() < deadline) await Bun.sleep(50);
  expect(checkAgentHealth(dir)).toEqual({ healthy: true, message: 'registered as machine machine-1' });
  health.stop();
  expect(existsSync(join(dir, 'health.json'))).toBe(false);
  expect(checkAgentHealth(dir)).toEqual({ healthy: false, message: expect.stringContaining('no agent runs on') });
});

test('a record left by a process that is gone, or not refreshed for longer than the limit, is unhealthy', () => {
  const gone = Bun.spawnSync(['true']).pid;
  writeFileSync(join(dir, 'health.json'), JSON.stringify({ registered: true, machine_id: 'm', pid: gone, at: new Date().toISOString() }));
  expect(checkAgentHealth(dir).message).toContain('is gone');

  const health = recordAgentHealth(dir, { isConnected: () => true, machineId: () => 'm' });
  const at = Date.parse((JSON.parse(readFileSync(join(dir, 'health.json'), 'utf8')) as { at: string }).at);
  expect(checkAgentHealth(dir, at + 30_000).healthy).toBe(true);
  expect(checkAgentHealth(dir, at + 31_000)).toEqual({ healthy: false, message: expect.stringContaining('31 s old') });
  health.stop();
});
