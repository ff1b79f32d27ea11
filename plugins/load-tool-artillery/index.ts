/** The `artillery` load-tool plugin: runs Artillery (from npm), which the agent host finds as `artilleryEngine` declares (or the `binary` config). */
import { definePlugin, provideEngineTool } from 'loadplane/plugin';
import { ArtilleryConfigSchema } from './config.ts';
import { artilleryEngine } from './engine.ts';
import { createArtilleryTool } from './artillery-tool.ts';

export { type ArtilleryConfig, ArtilleryConfigSchema } from './config.ts';
export { artilleryEngine, artilleryVersion } from './engine.ts';
export { artilleryCommand, artilleryPhases, artilleryScriptFile } from './artillery-command.ts';
export { artilleryOutcome } from './artillery-exit-codes.ts';
export { artilleryMetricsPlugin, artilleryMetricsPrefix, artilleryPluginFile } from './artillery-metrics-plugin.ts';
export { createArtilleryParser } from './artillery-output-parser.ts';
export { validateArtilleryScript } from './artillery-script-check.ts';
export { type ArtilleryToolOptions, createArtilleryTool } from './artillery-tool.ts';

export default definePlugin({
  name: 'load-tool-artillery',
  configSchema: ArtilleryConfigSchema,
  async setup(ctx) {
    // On an agent: ARTILLERY_BIN, PATH, the npm prefix under ~/.cache/loadplane/artillery/<version>, with its version.
    await provideEngineTool(ctx, artilleryEngine, {
      configuredBinary: ctx.config.binary,
      defaultBinary: 'artillery',
      create: ({ binary, which, version }) => createArtilleryTool({ binary, which, version }),
    });
  },
});
