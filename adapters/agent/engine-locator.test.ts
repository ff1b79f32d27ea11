import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { chmod, mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { EngineSpec } from '../../core/ports/engine-locator.ts';
import { createEngineLocator, createPathLookup, locateEngineOnHost } from './engine-locator.ts';

let root: string;
let enginesDir: string;
let pathDir: string;

async function executable(path: string, text: string) {
  await writeFile(path, `#!/bin/sh\necho "${text}"\n`);
  await chmod(path, 0o755);
}

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'loadplane-engines-'));
  enginesDir = join(root, 'cache');
  pathDir = join(root, 'path');
  await mkdir(join(enginesDir, 'bin'), { recursive: true });
  await mkdir(join(enginesDir, 'dist/bin'), { recursive: true });
  await mkdir(pathDir);
  await executable(join(enginesDir, 'bin/blaster'), 'blaster v2.0.0 (cached)');
  await writeFile(join(enginesDir, 'bin/blaster.version'), 'v2.0.0\n');
  await executable(join(pathDir, 'blaster'), 'blaster v1.5.0 (on PATH)');
  await executable(join(root, 'custom-blaster'), 'blaster v9.9.9 (named)');
  await executable(join(enginesDir, 'dist/bin/launcher'), 'Launcher 5.6.3');
});
afterAll(() => rm(root, { recursive: true, force: true }));

const spec: EngineSpec = {
  name: 'Blaster',
  program: 'blaster',
  envVar: 'BLASTER_BIN',
  version: { args: ['--version'], pattern: 'blaster (v\\S+)' },
  install: 'blaster',
};

describe('the engine locator: the variable, then PATH, then the engines directory', () => {
  test('the variable wins, and the version comes from running the engine', async () => {
    const found = await locateEngineOnHost(spec, { env: { BLASTER_BIN: join(root, 'custom-blaster'), PATH: pathDir }, dir: enginesDir });
    expect(found).toEqual({ found: true, name: 'Blaster', path: join(root, 'custom-blaster'), version: 'v9.9.9', source: 'env' });
  });

  test('a variable that points nowhere is reported, not replaced by another copy', async () => {
    const missing = await locateEngineOnHost(spec, { env: { BLASTER_BIN: '/nowhere/blaster', PATH: pathDir }, dir: enginesDir });
    expect(missing.found).toBe(false);
    if (!missing.found) expect(missing.reason).toContain('BLASTER_BIN=/nowhere/blaster is not an executable file');
  });

  test('PATH before the engines directory', async () => {
    const found = await locateEngineOnHost(spec, { env: { PATH: pathDir }, dir: enginesDir });
    expect(found).toMatchObject({ found: true, path: join(pathDir, 'blaster'), version: 'v1.5.0', source: 'path' });
  });

  test('the engines directory: bin/<program> by default, or the declared places; a version file only for what is there', async () => {
    const cached = await locateEngineOnHost({ ...spec, version: { file: 'bin/blaster.version' } }, { env: { PATH: '/usr/bin:/bin' }, dir: enginesDir });
    expect(cached).toEqual({ found: true, name: 'Blaster', path: join(enginesDir, 'bin/blaster'), version: 'v2.0.0', source: 'cache' });
    const onPath = await locateEngineOnHost({ ...spec, version: { file: 'bin/blaster.version' } }, { env: { PATH: pathDir }, dir: enginesDir });
    expect(onPath).toMatchObject({ found: true, source: 'path', version: null });
    // ~/.cache/loadplane/bin on PATH leads to the installer's own copy: its version file describes it.
    const cacheOnPath = await locateEngineOnHost({ ...spec, version: { file: 'bin/blaster.version' } }, { env: { PATH: join(enginesDir, 'bin') }, dir: enginesDir });
    expect(cacheOnPath).toEqual({ found: true, name: 'Blaster', path: join(enginesDir, 'bin/blaster'), version: 'v2.0.0', source: 'cache' });
    const launcher = await locateEngineOnHost(
      { name: 'Launcher', program: 'launcher', cached: ['dist/bin/launcher'], version: { args: ['-v'] } },
      { env: { PATH: '/usr/bin:/bin' }, dir: enginesDir },
    );
    expect(launcher).toMatchObject({ found: true, path: join(enginesDir, 'dist/bin/launcher'), version: 'Launcher 5.6.3', source: 'cache' });
  });

  test('missing: where it was looked for, and how to install it', async () => {
    const missing = await locateEngineOnHost({ ...spec, hint: 'or download it from blaster.example' }, { env: { PATH: '/usr/bin:/bin' }, dir: join(root, 'empty') });
    expect(missing).toMatchObject({ found: false, name: 'Blaster', path: 'blaster', install: 'bash scripts/install-engines blaster' });
    if (missing.found) throw new Error('unreachable');
    expect(missing.reason).toContain('BLASTER_BIN is not set, no blaster on PATH, nothing at');
    expect(missing.reason).toContain('install it with `bash scripts/install-engines blaster`');
    expect(missing.reason).toContain('or download it from blaster.example');
    expect(missing.reason).toContain('set BLASTER_BIN to its path');
  });

  test('the locator remembers what it found (the sandbox lets tools read it)', async () => {
    const locator = createEngineLocator({ env: { BLASTER_BIN: join(root, 'custom-blaster'), PATH: '' }, dir: enginesDir });
    await locator.locate(spec);
    await locator.locate({ name: 'None', program: 'no-such-engine' });
    expect(locator.found()).toEqual([join(root, 'custom-blaster')]);
  });

  test('what was missing is looked for again with file checks only: foundSince() turns true once it is there', async () => {
    const later = join(root, 'later');
    await mkdir(join(later, 'bin'), { recursive: true });
    const locator = createEngineLocator({ env: { PATH: '' }, dir: later });
    expect((await locator.locate(spec)).found).toBe(false);
    await locator.locate({ ...spec, name: 'Found', program: 'blaster', envVar: undefined, cached: [join(enginesDir, 'bin/blaster')] });
    expect(locator.foundSince()).toBe(false);
    await executable(join(later, 'bin/blaster'), 'blaster v3.0.0');
    expect(locator.foundSince()).toBe(true);
  });

  test('the program lookup remembers the programs it did not find, for the same look', async () => {
    const dir = join(root, 'later-path');
    await mkdir(dir);
    const lookup = createPathLookup(dir);
    expect(await lookup('helper')).toBeNull();
    expect(lookup.foundSince()).toBe(false);
    await executable(join(dir, 'helper'), 'helper');
    expect(lookup.foundSince()).toBe(true);
  });
});
