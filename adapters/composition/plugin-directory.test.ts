/** The plugins directory's list: written and read back, refused with its path when malformed; names resolve there first. */
import { expect, test } from 'bun:test';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { KernelBootError } from '../../core/kernel/errors.ts';
import { importFromPluginDir, installedPluginNames, writeInstalledPluginNames } from './plugin-directory.ts';

test('plugins.json: none without it, each name once, a malformed one names the file', () => {
  const dir = mkdtempSync(join(tmpdir(), 'loadplane-plugin-dir-'));
  try {
    expect(installedPluginNames(dir)).toEqual([]);
    writeInstalledPluginNames(dir, ['loadplane-plugin-a', '@acme/loadplane-b', 'loadplane-plugin-a']);
    expect(installedPluginNames(dir)).toEqual(['loadplane-plugin-a', '@acme/loadplane-b']);
    writeFileSync(join(dir, 'plugins.json'), '{"plugins": "loadplane-plugin-a"}');
    expect(() => installedPluginNames(dir)).toThrow(KernelBootError);
    expect(() => installedPluginNames(dir)).toThrow(join(dir, 'plugins.json'));
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});

test("a name installed in the directory is imported from there; any other from the checkout's node_modules", async () => {
  const dir = mkdtempSync(join(tmpdir(), 'loadplane-plugin-dir-'));
  try {
    const pkg = join(dir, 'node_modules', 'loadplane-plugin-hey');
    mkdirSync(pkg, { recursive: true });
    writeFileSync(join(dir, 'package.json'), '{"private": true}');
    writeFileSync(join(pkg, 'package.json'), '{"name": "loadplane-plugin-hey", "type": "module", "exports": {".": "./index.js"}}');
    writeFileSync(join(pkg, 'index.js'), "export default { name: 'from-the-directory', setup() {} };");
    const importer = importFromPluginDir(dir);
    expect((await importer('loadplane-plugin-hey')).default.name).toBe('from-the-directory');
    expect((await importFromPluginDir(undefined)('loadplane-plugin-hey')).default.name).toBe('loadplane-plugin-hey');
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
