/** The agent's state directory: a private key made once and kept, one agent per directory, stale locks taken over. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { mkdir, mkdtemp, readFile, rm, stat, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { AgentStateError, defaultStateDir, openAgentState } from './agent-state.ts';

let root: string;
beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'loadplane-agent-state-'));
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('openAgentState', () => {
  test('makes a private directory and key on the first start, and reads the same key afterwards', async () => {
    const dir = join(root, 'fresh');
    const first = openAgentState(dir);
    expect(first.machineKey).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect((await stat(dir)).mode & 0o777).toBe(0o700);
    expect((await stat(join(dir, 'machine-key'))).mode & 0o777).toBe(0o600);
    first.release();
    const again = openAgentState(dir);
    expect(again.machineKey).toBe(first.machineKey);
    again.release();
  });

  test('a second agent on a directory in use is refused; once released, it may start', () => {
    const dir = join(root, 'shared');
    const holder = openAgentState(dir);
    expect(() => openAgentState(dir)).toThrow(AgentStateError);
    expect(() => openAgentState(dir)).toThrow(`another agent (pid ${process.pid}) runs with the state directory ${dir}`);
    holder.release();
    openAgentState(dir).release();
  });

  test("a lock left by a process that is gone, or by another boot (a cloned VM), is taken over", async () => {
    for (const [name, lock] of [
      ['dead', { pid: 2 ** 22 + 17, boot: '', start: '' }],
      ['other-boot', { pid: 1, boot: 'not-this-boot', start: '' }],
      ['recycled-pid', { pid: 1, boot: '', start: 'another-start-time' }],
    ] as const) {
      const dir = join(root, name);
      await mkdir(dir, { recursive: true });
      await writeFile(join(dir, 'agent.lock'), JSON.stringify(lock));
      const state = openAgentState(dir);
      expect(JSON.parse(await readFile(join(dir, 'agent.lock'), 'utf8')).pid).toBe(process.pid);
      state.release();
    }
  });

  test('a new key replaces the old one in the directory (this agent was cloned)', async () => {
    const dir = join(root, 'renewed');
    const state = openAgentState(dir);
    const old = state.machineKey;
    const renewed = state.renewMachineKey();
    expect(renewed).not.toBe(old);
    expect(state.machineKey).toBe(renewed);
    expect((await readFile(join(dir, 'machine-key'), 'utf8')).trim()).toBe(renewed);
    state.release();
  });

  test('a key file that holds no key is refused, saying what to do', async () => {
    const dir = join(root, 'broken');
    await mkdir(dir, { recursive: true });
    await writeFile(join(dir, 'machine-key'), 'not a key!\n');
    expect(() => openAgentState(dir)).toThrow('does not hold a machine key; delete it');
    // Refused without keeping the directory: it can be repaired and used at once.
    await rm(join(dir, 'machine-key'));
    openAgentState(dir).release();
  });

  test('the default directory: AGENT_STATE_DIR, else under XDG_STATE_HOME, else ~/.local/state', () => {
    expect(defaultStateDir({ AGENT_STATE_DIR: '/srv/agent' })).toBe('/srv/agent');
    expect(defaultStateDir({ XDG_STATE_HOME: '/home/u/.state' })).toBe('/home/u/.state/loadplane-agent');
    expect(defaultStateDir({})).toMatch(/\/\.local\/state\/loadplane-agent$/);
  });
});
