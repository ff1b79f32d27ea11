/**
 * Which machine an agent's hello gets (core/services/runs/agent-machines.ts), over real agent sockets: by machine key,
 * else by hostname; a hostname another connected agent's machine holds gives `<hostname>-2`; a reinstalled agent (new
 * key) takes its offline machine back; a keyless (older) agent keeps today's behaviour unless a keyed agent holds the
 * name; the plan's machine limit still applies; a `tools` message updates the machine while its socket holds it; the
 * region a hello names is the machine's (GET /machines/{id}) until a hello names another.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { type HelloSocket, newMachineKey, sayHello } from '../helpers/hello-socket.ts';
import { agentToken } from '../helpers/service-with-agent.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
const open: HelloSocket[] = [];

beforeAll(async () => {
  ts = await startTestService({ port: await freePort() });
  await ts.listen();
}, 60_000);

afterAll(async () => {
  for (const socket of open) await socket.close();
  await ts?.stop();
});

type Listed = { id: string; hostname: string; status: string; tools: { tool: string; version: string | null }[] };

/** A fresh workspace (its owner's) with an agent's credentials; `plan` for the limit test. */
async function workspace(name: string, plan?: 'starter') {
  const owner = await ts.apiToken(name);
  if (plan) expect((await ts.request('/api/v1/workspace', { method: 'PATCH', token: owner.jwt, json: { plan } })).status).toBe(200);
  // Starter has no API tokens: its owner's own sign-in connects the agent there.
  const token = plan ? owner.jwt : await agentToken(ts, owner.jwt, `${name}-agent`);
  const machines = async () => (await (await ts.request('/api/v1/machines', { token: owner.jwt })).json()) as Listed[];
  const hello = async (hostname: string, machineKey?: string, tools?: string[], region?: string) => {
    const socket = await sayHello(ts.url, token, { hostname, machineKey, tools, region });
    open.push(socket);
    return socket;
  };
  /** Waits until the machine's status is `status` (a socket's end reaches its presence asynchronously). */
  const until = async (id: string, status: string) => {
    for (;;) {
      const machine = (await machines()).find((m) => m.id === id);
      if (machine?.status === status) return machine;
      await Bun.sleep(20);
    }
  };
  const machine = async (id: string) => {
    const response = await ts.request(`/api/v1/machines/${id}`, { token: owner.jwt });
    expect(response.status).toBe(200);
    return (await response.json()) as Listed & { region: string | null; benchmark_capacity: number | null; agent_version: string | null };
  };
  return { machines, machine, hello, until };
}

describe('an agent with a machine key', () => {
  test('a second and third agent with a taken hostname get machines of their own, numbered; nobody is replaced', async () => {
    const w = await workspace('keys-numbered');
    const first = await w.hello('gen', newMachineKey());
    const second = await w.hello('gen', newMachineKey());
    const third = await w.hello('GEN', newMachineKey());
    expect([first, second, third].map((s) => s.welcome?.hostname)).toEqual(['gen', 'gen-2', 'gen-3']);
    expect(new Set([first, second, third].map((s) => s.welcome!.machineId)).size).toBe(3);
    const listed = await w.machines();
    expect(listed.map((m) => [m.hostname, m.status]).sort()).toEqual([['gen', 'online'], ['gen-2', 'online'], ['gen-3', 'online']]);
    expect([first, second, third].map((s) => s.closed())).toEqual([null, null, null]);
  });

  test('the same key again is the same machine (a reconnect): the older socket is closed with 4409', async () => {
    const w = await workspace('keys-reconnect');
    const key = newMachineKey();
    const before = await w.hello('gen', key);
    const after = await w.hello('gen', key);
    expect(after.welcome!.machineId).toBe(before.welcome!.machineId);
    expect((await before.whenClosed()).code).toBe(4409);
    expect(after.closed()).toBeNull();
  });

  test('a reinstalled agent (new key, same hostname) takes its offline machine back, with its id', async () => {
    const w = await workspace('keys-reinstall');
    const old = await w.hello('gen', newMachineKey());
    const id = old.welcome!.machineId;
    await old.close();
    await w.until(id, 'offline');
    const reinstalled = await w.hello('gen', newMachineKey());
    expect(reinstalled.welcome).toEqual(expect.objectContaining({ machineId: id, hostname: 'gen' }));
    expect((await w.machines()).map((m) => m.id)).toEqual([id]);
  });

  test('an agent without a key gives its machine to the first keyed agent (an upgrade), and is then refused, not looped', async () => {
    const w = await workspace('keys-upgrade');
    const legacy = await w.hello('gen');
    const id = legacy.welcome!.machineId;
    const upgraded = await w.hello('gen', newMachineKey());
    expect(upgraded.welcome!.machineId).toBe(id);
    expect((await legacy.whenClosed()).code).toBe(4409);
    // The old agent comes back: the machine is the keyed agent's now, which is connected.
    const again = await w.hello('gen');
    expect(again.welcome).toBeNull();
    expect(again.closed()?.code).toBe(4409);
    expect(again.messages.find((m) => m.type === 'error')?.message).toContain('--hostname');
    expect(upgraded.closed()).toBeNull();
    // Once the keyed agent is gone, a keyless one may use the machine again (it keeps the key for its owner).
    await upgraded.close();
    await w.until(id, 'offline');
    expect((await w.hello('gen')).welcome!.machineId).toBe(id);
  });

  test("a key's machine follows the agent's new hostname when that name is free, and keeps its own otherwise", async () => {
    const w = await workspace('keys-rename');
    const key = newMachineKey();
    const first = await w.hello('gen', key);
    await first.close();
    await w.until(first.welcome!.machineId, 'offline');
    const renamed = await w.hello('gen-renamed', key);
    expect(renamed.welcome).toEqual({ ...renamed.welcome, machineId: first.welcome!.machineId, hostname: 'gen-renamed' });
    await renamed.close();
    await w.until(first.welcome!.machineId, 'offline');
    const other = await w.hello('taken', newMachineKey());
    const back = await w.hello('taken', key);
    expect(back.welcome).toEqual({ ...back.welcome, machineId: first.welcome!.machineId, hostname: 'gen-renamed' });
    expect(other.closed()).toBeNull();
  });

  test("the plan's machine limit holds for numbered machines: starter allows 2", async () => {
    const w = await workspace('keys-limit', 'starter');
    expect((await w.hello('gen', newMachineKey())).welcome?.hostname).toBe('gen');
    expect((await w.hello('gen', newMachineKey())).welcome?.hostname).toBe('gen-2');
    const third = await w.hello('gen', newMachineKey());
    expect(third.welcome).toBeNull();
    expect(third.closed()?.code).toBe(4403);
    expect((await w.machines()).length).toBe(2);
  });
});

describe('tools reported after hello', () => {
  test('a tools message changes the machine at once; the next hello says the tools again', async () => {
    const w = await workspace('tools-update');
    const key = newMachineKey();
    const first = await w.hello('gen', key, ['custom']);
    first.send({ type: 'tools', tools: ['custom', 'k6'], tool_versions: { k6: 'v9.9.9' }, tool_problems: {} });
    const id = first.welcome!.machineId;
    for (;;) {
      const machine = (await w.machines()).find((m) => m.id === id)!;
      if (machine.tools.some((t) => t.tool === 'k6')) {
        expect(machine.tools).toEqual([{ tool: 'custom', version: null }, { tool: 'k6', version: 'v9.9.9' }]);
        break;
      }
      await Bun.sleep(20);
    }
    const second = await w.hello('gen', key, ['custom']);
    await first.whenClosed();
    // The newer hello's own list stands until its own tools message.
    expect((await w.machines()).find((m) => m.id === id)!.tools).toEqual([{ tool: 'custom', version: null }]);
    second.send({ type: 'tools', tools: ['custom', 'locust'] });
    for (;;) {
      const machine = (await w.machines()).find((m) => m.id === id)!;
      if (machine.tools.length === 2) {
        expect(machine.tools.map((t) => t.tool)).toEqual(['custom', 'locust']);
        break;
      }
      await Bun.sleep(20);
    }
  });
});

describe('the region a hello names', () => {
  test('shows on GET /machines/{id}; a hello without one keeps it, a hello with another replaces it', async () => {
    const w = await workspace('region-hello');
    const key = newMachineKey();
    const first = await w.hello('gen', key, [], 'eu-west-1');
    const id = first.welcome!.machineId;
    expect(await w.machine(id)).toMatchObject({ id, hostname: 'gen', region: 'eu-west-1', agent_version: 'test', benchmark_capacity: null });
    // An agent started without --region (or one older than regions) says nothing about it.
    await first.close();
    await w.until(id, 'offline');
    const second = await w.hello('gen', key);
    expect(second.welcome!.machineId).toBe(id);
    expect((await w.machine(id)).region).toBe('eu-west-1');
    await second.close();
    await w.until(id, 'offline');
    const third = await w.hello('gen', key, [], 'us-east-2');
    expect(third.welcome!.machineId).toBe(id);
    expect((await w.machine(id)).region).toBe('us-east-2');
    // A new machine made by a hello takes the hello's region too.
    const other = await w.hello('gen-other', newMachineKey(), [], 'ap-south-1');
    expect((await w.machine(other.welcome!.machineId)).region).toBe('ap-south-1');
  });

  test('a region that is no region name is refused with the reason, and no machine is made', async () => {
    const w = await workspace('region-bad');
    const refused = await w.hello('gen', newMachineKey(), [], 'eu west 1');
    expect(refused.welcome).toBeNull();
    expect((await refused.whenClosed()).code).toBe(4400);
    expect(refused.messages.find((m) => m.type === 'error')?.message).toContain('region must be 1 to 64 letters');
    expect(await w.machines()).toEqual([]);
  });
});
