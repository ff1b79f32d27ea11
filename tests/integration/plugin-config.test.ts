/**
 * Plugin settings from the environment reach the plugins, on the service and on an agent: LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY
 * names a stand-in k6, the service's k6 tool builds its commands with it, and a real `loadplane agent` process given the
 * same variable runs it for a k6 task. A wrong setting stops either of them, naming the plugin and the key.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { PluginConfigError } from '../../config/plugin-config-error.ts';
import { type Assignment, loadToolCapability } from '../../core/capabilities/load-tool.ts';
import { startAgentProcess } from '../helpers/agent-process.ts';
import { startAccepted, taskLog, waitForEnd } from '../helpers/engine-runs.ts';
import { type ServiceWithAgentProcess, startServiceWithAgentProcess } from '../helpers/service-with-agent.ts';
import { startTestService } from '../helpers/test-service.ts';

const dir = mkdtempSync(join(tmpdir(), 'plugin-config-'));
/** A stand-in k6 that says it ran: what the configured binary setting must make the agent run. */
const fakeK6 = join(dir, 'configured-k6');
writeFileSync(fakeK6, '#!/bin/sh\nif [ "$1" = version ]; then echo "k6 v0.0.1 (configured)"; exit 0; fi\necho "the configured k6 ran: $1"\n', { mode: 0o755 });
const setting = { LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY: fakeK6 };

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

let fixture: ServiceWithAgentProcess;
beforeAll(async () => {
  fixture = await startServiceWithAgentProcess('plugin-config-owner', {
    env: setting,
    hostname: 'configured-generator',
    // The tool sandbox is the agent's business, not this test's: the binary it runs is.
    agentArgs: ['--sandbox', 'off'],
    agentEnv: setting,
  });
}, 90_000);

afterAll(async () => {
  await fixture?.stop();
  rmSync(dir, { recursive: true, force: true });
});

describe('LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY', () => {
  test("reaches the service's k6 plugin: its commands run the configured binary", () => {
    const k6 = fixture.ts.service.kernel.getAll(loadToolCapability).find((tool) => tool.tool === 'k6')!;
    expect(k6.command(assignment).argv[0]).toBe(fakeK6);
  });

  test('reaches an agent process: it offers k6 and runs the configured binary for a k6 task', async () => {
    const { ts, token, agent, machineId } = fixture;
    expect(agent.output()).toMatch(/\n {2}k6\s+ready\n/);
    const id = await startAccepted(ts, token, { tool: 'k6', script: 'export default function () {}', machineIds: [machineId] });
    await waitForEnd(ts, token, id, 60_000, () => agent.output().slice(-3000));
    expect(await taskLog(ts, id)).toContain('the configured k6 ran: run');
  }, 90_000);
});

describe('a wrong setting stops the start, naming the plugin and the key', () => {
  test('the service', async () => {
    const started = startTestService({ env: { LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINRY: '/opt/k6' } });
    await expect(started).rejects.toBeInstanceOf(PluginConfigError);
    await expect(started).rejects.toThrow('plugin "load-tool-k6": LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINRY is not one of its settings (LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY)');
  });

  test('an agent process: exit 2 with the message', async () => {
    const agent = startAgentProcess({
      serverUrl: fixture.ts.url,
      token: 'psk_not-used-before-the-settings-are-checked',
      hostname: 'misconfigured',
      // A blank variable is unset, a right one is taken; the unknown key stops the agent.
      env: { LOADPLANE_PLUGIN_LOAD_TOOL_LOCUST_BINARY: '', LOADPLANE_PLUGIN_LOAD_TOOL_GATLING_LAUNCHER: '/opt/gatling', LOADPLANE_PLUGIN_LOAD_TOOL_GATLING_VERSION: '3' },
    });
    expect(await agent.exited()).toBe(2);
    expect(agent.output()).toContain('plugin "load-tool-gatling": LOADPLANE_PLUGIN_LOAD_TOOL_GATLING_VERSION is not one of its settings');
  }, 30_000);
});
