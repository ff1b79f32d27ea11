/** A plugin defined with the kit is a core plugin: the kernel boots it, and the types say so (tsc checks this file). */
import { expect, test } from 'bun:test';
import { createKernel } from '../../../core/kernel/create-kernel.ts';
import type { PluginDefinition as CorePluginDefinition } from '../../../core/kernel/define-plugin.ts';
import { silentLogger } from '../../../core/kernel/logger.ts';
import { definePlugin, loadToolCapability, type PluginDefinition, Type } from './index.ts';

// The kit declares its own shape (no tables); this line fails to compile if it stops fitting core's.
const asCorePlugin = (plugin: PluginDefinition): CorePluginDefinition => plugin;

test("a kit plugin boots in core's kernel: its capability token and config schema are the kernel's", async () => {
  const plugin = definePlugin({
    name: 'kit-probe',
    configSchema: Type.Object({ binary: Type.String({ default: 'probe' }) }),
    setup(ctx) {
      const binary: string = ctx.config.binary;
      ctx.provide(loadToolCapability, {
        tool: 'probe',
        validateScript: () => null,
        available: async () => ({ ok: true, version: binary }),
        command: () => ({ argv: [binary] }),
        createParser: () => {
          throw new Error('not run');
        },
      });
    },
  });
  const kernel = await createKernel({ plugins: [asCorePlugin(plugin)], logger: silentLogger, pluginConfig: { 'kit-probe': {} } });
  const [tool] = kernel.getAll(loadToolCapability);
  expect(tool?.tool).toBe('probe');
  expect(await tool!.available()).toEqual({ ok: true, version: 'probe' });
  await kernel.stop();
});
