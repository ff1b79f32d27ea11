import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { createKernel, resolvePluginOrder } from './create-kernel.ts';
import { defineCapability } from './define-capability.ts';
import { definePlugin } from './define-plugin.ts';
import { KernelBootError } from './errors.ts';
import { silentLogger } from './logger.ts';

interface Greeter {
  greet(name: string): string;
}
interface Tool {
  tool: string;
}
const greeter = defineCapability<Greeter>({ id: 'test.greeter', cardinality: 'one' });
const tools = defineCapability<Tool>({ id: 'test.tools', cardinality: 'many', key: (t) => t.tool });

const plugin = (name: string, dependsOn: string[] = [], setup: Parameters<typeof definePlugin>[0]['setup'] = () => {}) =>
  definePlugin({ name, dependsOn, setup });

describe('plugin order', () => {
  test('dependencies set up first, whatever the listed order', () => {
    const order = resolvePluginOrder([plugin('c', ['b']), plugin('a'), plugin('b', ['a'])]).map((p) => p.name);
    expect(order).toEqual(['a', 'b', 'c']);
  });

  test('an unknown dependency names both plugins', () => {
    expect(() => resolvePluginOrder([plugin('mcp', ['auth'])])).toThrow('plugin "mcp" depends on "auth", which is not loaded');
  });

  test('a cycle is refused with its path', () => {
    expect(() => resolvePluginOrder([plugin('a', ['b']), plugin('b', ['a'])])).toThrow(/cycle: a -> b -> a/);
  });

  test('duplicate and badly named plugins are refused', () => {
    expect(() => resolvePluginOrder([plugin('a'), plugin('a')])).toThrow('plugin "a" is registered twice');
    expect(() => resolvePluginOrder([plugin('Bad_Name')])).toThrow(/not kebab-case/);
  });
});

describe('kernel', () => {
  test('capabilities flow from provider to consumer, and the registry freezes after boot', async () => {
    let late: (() => void) | undefined;
    const kernel = await createKernel({
      logger: silentLogger,
      plugins: [
        plugin('english', [], (ctx) => {
          ctx.provide(greeter, { greet: (name) => `hello ${name}` });
          late = () => ctx.provide(tools, { tool: 'late' });
        }),
        plugin('k6', [], (ctx) => ctx.provide(tools, { tool: 'k6' })),
        plugin('locust', [], (ctx) => ctx.provide(tools, { tool: 'locust' })),
        plugin('consumer', ['english'], (ctx) => {
          expect(ctx.use(greeter).greet('ada')).toBe('hello ada');
        }),
      ],
    });
    expect(kernel.get(greeter).greet('bob')).toBe('hello bob');
    expect(kernel.getAll(tools).map((t) => t.tool)).toEqual(['k6', 'locust']);
    expect(() => late!()).toThrow(/after boot/);
  });

  test('two providers of a "one" capability fail boot naming both', async () => {
    const provide = (ctx: { provide: (c: typeof greeter, g: Greeter) => void }) => ctx.provide(greeter, { greet: () => '' });
    await expect(
      createKernel({ logger: silentLogger, plugins: [plugin('first', [], provide), plugin('second', [], provide)] }),
    ).rejects.toThrow('test.greeter is provided by both "first" and "second"');
  });

  test('two providers with one key of a "many" capability fail boot', async () => {
    await expect(
      createKernel({
        logger: silentLogger,
        plugins: [
          plugin('k6-a', [], (ctx) => ctx.provide(tools, { tool: 'k6' })),
          plugin('k6-b', [], (ctx) => ctx.provide(tools, { tool: 'k6' })),
        ],
      }),
    ).rejects.toThrow('test.tools "k6" is provided by both "k6-a" and "k6-b"');
  });

  test('using a capability nobody provided yet names the requester', async () => {
    await expect(
      createKernel({ logger: silentLogger, plugins: [plugin('needy', [], (ctx) => void ctx.use(greeter))] }),
    ).rejects.toThrow('plugin "needy" uses test.greeter, but no plugin loaded before it provides it');
  });

  test('a required capability without provider fails boot', async () => {
    await expect(createKernel({ logger: silentLogger, plugins: [], required: [greeter] })).rejects.toThrow(KernelBootError);
  });

  test('plugin config is validated with defaults applied, and errors name the plugin', async () => {
    const schema = Type.Object({ retries: Type.Integer({ minimum: 0, default: 3 }) });
    let seen: unknown;
    await createKernel({
      logger: silentLogger,
      plugins: [definePlugin({ name: 'cfg', configSchema: schema, setup: (ctx) => void (seen = ctx.config) })],
    });
    expect(seen).toEqual({ retries: 3 });
    expect(Object.isFrozen(seen)).toBe(true);
    await expect(
      createKernel({
        logger: silentLogger,
        pluginConfig: { cfg: { retries: -1 } },
        plugins: [definePlugin({ name: 'cfg', configSchema: schema, setup: () => {} })],
      }),
    ).rejects.toThrow(/plugin "cfg" config \/retries/);
  });

  test('teardowns run in reverse boot order, also when a later setup fails', async () => {
    const calls: string[] = [];
    const kernel = await createKernel({
      logger: silentLogger,
      plugins: [
        plugin('a', [], (ctx) => ctx.onStop(() => void calls.push('a'))),
        plugin('b', ['a'], (ctx) => ctx.onStop(() => void calls.push('b'))),
      ],
    });
    let aborted = false;
    kernel.hooks.hook('kernel:stopping', () => void calls.push('stopping'));
    await kernel.stop();
    expect(calls).toEqual(['stopping', 'b', 'a']);

    calls.length = 0;
    await expect(
      createKernel({
        logger: silentLogger,
        plugins: [
          plugin('a', [], (ctx) => {
            ctx.onStop(() => void calls.push('a'));
            ctx.signal.addEventListener('abort', () => (aborted = true));
          }),
          plugin('broken', ['a'], () => {
            throw new Error('boom');
          }),
        ],
      }),
    ).rejects.toThrow('boom');
    expect(calls).toEqual(['a']);
    expect(aborted).toBe(true);
  });

  test('hooks: typed handlers run in order, unregister works, a failing handler is logged not thrown', async () => {
    const errors: string[] = [];
    const kernel = await createKernel({
      logger: { ...silentLogger, error: (message) => void errors.push(message), child: () => ({ ...silentLogger }) },
      plugins: [],
    });
    const seen: string[] = [];
    const off = kernel.hooks.hook('machine:created', ({ machineId }) => void seen.push(`first ${machineId}`));
    kernel.hooks.hook('machine:created', () => {
      throw new Error('listener bug');
    });
    kernel.hooks.hook('machine:created', ({ machineId }) => void seen.push(`third ${machineId}`));
    await kernel.hooks.callHook('machine:created', { workspaceId: 'w', machineId: 'm1' });
    off();
    await kernel.hooks.callHook('machine:created', { workspaceId: 'w', machineId: 'm2' });
    expect(seen).toEqual(['first m1', 'third m1', 'third m2']);
    expect(errors).toEqual(['hook handler failed', 'hook handler failed']);
  });
});

// Type-level checks: these lines fail `tsc` if the typing regresses.
declare module './hooks.ts' {
  interface KernelHooks {
    'example:augmented': { value: number };
  }
}
test('types: augmented hooks and capability resolution are typed', async () => {
  const kernel = await createKernel({ logger: silentLogger, plugins: [] });
  kernel.hooks.hook('example:augmented', ({ value }) => {
    const n: number = value;
    void n;
  });
  // @ts-expect-error -- payload of an augmented hook is checked
  await kernel.hooks.callHook('example:augmented', { value: 'not a number' });
  // @ts-expect-error -- unknown hook names are refused
  kernel.hooks.hook('nope:nothing', () => {});
  const kernel2 = await createKernel({
    logger: silentLogger,
    plugins: [plugin('g', [], (ctx) => ctx.provide(greeter, { greet: () => 'hi' }))],
  });
  const one: Greeter = kernel2.get(greeter);
  const many: readonly Tool[] = kernel2.getAll(tools);
  // @ts-expect-error -- a 'many' capability cannot be read as one
  kernel2.get(tools);
  // @ts-expect-error -- the implementation must match the capability's type
  definePlugin({ name: 'x', setup: (ctx) => ctx.provide(greeter, { wrong: true }) });
  expect(one.greet('x')).toBe('hi');
  expect(many).toEqual([]);
});
