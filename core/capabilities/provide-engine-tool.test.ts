/** provideEngineTool: the located engine or a configured binary, the version only for the located one, the reason when missing. */
import { expect, test } from 'bun:test';
import type { AnyCapabilityToken } from '../kernel/define-capability.ts';
import { engineLocatorPort, type EngineSpec, type LocatedEngine } from '../ports/engine-locator.ts';
import { type ProgramLookup, programLookupPort } from '../ports/program-lookup.ts';
import { type LoadTool, loadToolCapability } from './load-tool.ts';
import { type EngineChoice, provideEngineTool } from './provide-engine-tool.ts';

const spec: EngineSpec = { name: 'Demo', program: 'demo', install: 'demo' };
const found: LocatedEngine = { found: true, name: 'Demo', path: '/cache/bin/demo', version: '1.2.3', source: 'cache' };
const missing: LocatedEngine = { found: false, name: 'Demo', path: 'demo', reason: 'Demo not found (PATH, ~/.cache/loadplane/bin/demo)', install: 'bash scripts/install-engines demo' };
const which: ProgramLookup = async (program) => `/usr/bin/${program}`;

/** A setup context with these ports, recording what was provided and what `create` was given. */
async function setUp(engine: LocatedEngine | null, configuredBinary: string | undefined = 'demo', withLookup = true) {
  const ports = new Map<AnyCapabilityToken, unknown>();
  if (engine) ports.set(engineLocatorPort, { locate: async () => engine });
  if (withLookup) ports.set(programLookupPort, which);
  const provided: unknown[] = [];
  const ctx = {
    has: (token: AnyCapabilityToken) => ports.has(token),
    use: ((token: AnyCapabilityToken) => ports.get(token)) as never,
    provide: (token: AnyCapabilityToken, implementation: unknown) => provided.push([token, implementation]),
  };
  let choice: EngineChoice | undefined;
  const tool = await provideEngineTool(ctx, spec, {
    configuredBinary,
    defaultBinary: 'demo',
    create: async (given) => {
      choice = given;
      return fakeTool(given.binary);
    },
  });
  expect(provided).toEqual([[loadToolCapability, tool]]);
  return { tool, choice: choice! };
}

function fakeTool(binary: string): LoadTool {
  return {
    tool: 'demo',
    validateScript: () => null,
    available: async () => ({ ok: true, version: `own answer for ${binary}` }),
    command: () => ({ argv: [binary], files: {} }) as never,
    createParser: () => ({}) as never,
  };
}

test('found: runs the located engine with its version; the tool answers available() itself', async () => {
  const { tool, choice } = await setUp(found);
  expect(choice).toEqual({ binary: '/cache/bin/demo', which, version: '1.2.3', engine: found, usable: true, extension: false });
  expect(await tool.available()).toEqual({ ok: true, version: 'own answer for /cache/bin/demo' });
});

test('not found: the bare program name, and available() gives the locator reason', async () => {
  const { tool, choice } = await setUp(missing);
  expect(choice).toEqual({ binary: 'demo', which, version: undefined, engine: missing, usable: false, extension: false });
  expect(await tool.available()).toEqual({ ok: false, reason: missing.reason });
  expect(tool.tool).toBe('demo');
});

test('no locator (the control plane): not looked for, the reason says so', async () => {
  const { tool, choice } = await setUp(null, 'demo', false);
  expect(choice.which).toBeUndefined();
  expect(choice.usable).toBe(false);
  expect(await tool.available()).toEqual({ ok: false, reason: 'Demo is not looked for on this host (no engine locator)' });
});

test('an explicit binary wins over the located engine, without its version, even when none was found', async () => {
  const over = await setUp(found, '/opt/demo');
  expect(over.choice).toMatchObject({ binary: '/opt/demo', version: undefined, usable: true, extension: false });
  const alone = await setUp(missing, '/opt/demo');
  expect(alone.choice).toMatchObject({ binary: '/opt/demo', version: undefined, usable: true, extension: false });
  // Nothing was located, but the configured binary is there to run: the tool answers (its own lookup) itself.
  expect(await alone.tool.available()).toEqual({ ok: true, version: 'own answer for /opt/demo' });
});

test('the version only when the binary run is the located engine (configured to that very path)', async () => {
  const same = await setUp(found, '/cache/bin/demo');
  expect(same.choice).toMatchObject({ binary: '/cache/bin/demo', version: '1.2.3', usable: true, extension: false });
  const unversioned = await setUp({ ...found, version: null });
  expect(unversioned.choice.version).toBeUndefined();
});

test('a plugin without a binary setting: always the located engine', async () => {
  expect((await setUp(found, undefined)).choice).toMatchObject({ binary: '/cache/bin/demo', version: '1.2.3', usable: true, extension: false });
  const { tool, choice } = await setUp(missing, undefined);
  expect(choice).toMatchObject({ binary: 'demo', usable: false, extension: false });
  expect(await tool.available()).toEqual({ ok: false, reason: missing.reason });
});

test('an extension: probed on the chosen binary only when there is one to run; present when the probe reads its name', async () => {
  const probes: string[] = [];
  /** The engine is `engine`; a probe of `/ours` reads `loadplane`, any other binary something else. */
  const locator = (engine: LocatedEngine) => ({
    locate: async (asked: EngineSpec): Promise<LocatedEngine> => {
      if (asked.name !== 'Demo extension') return engine;
      probes.push(asked.program);
      return { found: true, name: asked.name, path: asked.program, version: asked.program === '/ours' ? 'loadplane' : 'other', source: 'path' };
    },
  });
  const choose = async (engine: LocatedEngine, configuredBinary?: string) => {
    let choice: EngineChoice | undefined;
    const ports = new Map<AnyCapabilityToken, unknown>([[engineLocatorPort, locator(engine)]]);
    await provideEngineTool(
      { has: (token) => ports.has(token), use: ((token: AnyCapabilityToken) => ports.get(token)) as never, provide: () => {} },
      spec,
      {
        configuredBinary,
        defaultBinary: 'demo',
        extension: { probe: (binary) => ({ name: 'Demo extension', program: binary }), name: 'loadplane' },
        create: (given) => {
          choice = given;
          return fakeTool(given.binary);
        },
      },
    );
    return choice!;
  };
  expect((await choose({ ...found, path: '/ours' })).extension).toBe(true);
  expect((await choose(found)).extension).toBe(false);
  expect((await choose(missing, '/ours')).extension).toBe(true);
  expect(probes).toEqual(['/ours', '/cache/bin/demo', '/ours']);
  // Nothing to run: nothing probed.
  expect((await choose(missing)).extension).toBe(false);
  expect(probes).toHaveLength(3);
});
