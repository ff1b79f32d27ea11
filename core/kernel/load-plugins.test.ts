import { expect, test } from 'bun:test';
import { createKernel } from './create-kernel.ts';
import { definePlugin } from './define-plugin.ts';
import { loadPlugins, type PluginModule } from './load-plugins.ts';
import { silentLogger } from './logger.ts';

const builtin = definePlugin({ name: 'builtin-one', setup() {} });
const thirdParty = definePlugin({ name: 'loadplane-plugin-extra', dependsOn: ['builtin-one'], setup() {} });

test('built-in and third-party plugins load by name through the same path, then boot together', async () => {
  const imported: string[] = [];
  const plugins = await loadPlugins(
    ['builtin-one', 'loadplane-plugin-extra', 'builtin-one'],
    { 'builtin-one': async () => ({ default: builtin }) },
    async (name) => {
      imported.push(name);
      return { default: thirdParty } as PluginModule;
    },
  );
  expect(plugins.map((p) => p.name)).toEqual(['builtin-one', 'loadplane-plugin-extra']);
  expect(imported).toEqual(['loadplane-plugin-extra']);
  const kernel = await createKernel({ plugins, logger: silentLogger });
  expect(kernel.order).toEqual(['builtin-one', 'loadplane-plugin-extra']);
});

test('a package that is missing or exports no plugin fails boot with its name', async () => {
  await expect(loadPlugins(['loadplane-plugin-nowhere'], {})).rejects.toThrow('plugin "loadplane-plugin-nowhere" could not be loaded');
  await expect(loadPlugins(['not-a-plugin'], {}, async () => ({ default: { hello: 'world' } }) as never)).rejects.toThrow(
    'module "not-a-plugin" does not default-export a plugin',
  );
});
