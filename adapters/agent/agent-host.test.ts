import { expect, test } from 'bun:test';
import { definePlugin, engineAvailability, loadToolCapability, locateEngine, type LoadTool, type LocatedEngine } from 'loadplane/plugin';
import { silentLogger } from '../../core/kernel/logger.ts';
import { formatToolReport, prepareAgentHost } from './start-node-agent.ts';

const toolFor = (id: string, engine: LocatedEngine): LoadTool => ({
  tool: id,
  validateScript: () => null,
  available: async () => engineAvailability(engine),
  command: () => ({ argv: [engine.path] }),
  createParser: () => {
    throw new Error('not run here');
  },
});

// Two plugins as a stranger writes them: each declares its engine, the host finds it (or not).
const present = definePlugin({
  name: 'loadplane-plugin-present',
  async setup(ctx) {
    ctx.provide(loadToolCapability, toolFor('present', await locateEngine(ctx, { name: 'sh', program: 'sh', version: { args: ['-c', 'echo sh 1.2'], pattern: 'sh (\\S+)' } })));
  },
});
const absent = definePlugin({
  name: 'loadplane-plugin-absent',
  async setup(ctx) {
    ctx.provide(loadToolCapability, toolFor('absent', await locateEngine(ctx, { name: 'Absent', program: 'no-such-engine-here', envVar: 'ABSENT_BIN', install: 'absent' })));
  },
});

test('the agent host finds each plugin\'s engine, offers what it found with its version, and says how to get the rest', async () => {
  const host = await prepareAgentHost({ plugins: [present, absent], logger: silentLogger, sandbox: 'off', env: { PATH: '/usr/bin:/bin' } });
  try {
    expect([...host.tools.keys()]).toEqual(['present']);
    expect(host.toolVersions).toEqual({ present: '1.2' });
    const byTool = Object.fromEntries(host.report.map((entry) => [entry.tool, entry]));
    expect(byTool.present).toEqual({ tool: 'present', found: true, version: '1.2', reason: null, offered: true });
    expect(byTool.absent).toMatchObject({ tool: 'absent', found: false, offered: false });
    expect(byTool.absent!.reason).toContain('bash scripts/install-engines absent');
    // The spec's tools without a plugin on this agent are listed too.
    expect(byTool.k6).toEqual({ tool: 'k6', found: false, version: null, reason: 'no plugin for it on this agent', offered: false });
    const printed = formatToolReport(host.report);
    expect(printed).toContain('load tools on this machine:');
    expect(printed).toMatch(/ {2}present +1\.2($|\n)/);
    expect(printed).toMatch(/ {2}absent +missing: Absent not found \(ABSENT_BIN is not set/);
  } finally {
    await host.dispose();
  }
});
