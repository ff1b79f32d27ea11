/** The `locust` load-tool plugin: runs Locust (from PyPI), which the agent host finds as `locustEngine` declares (or the `binary` config). */
import { definePlugin, provideEngineTool } from 'loadplane/plugin';
import { LocustConfigSchema } from './config.ts';
import { locustEngine } from './engine.ts';
import { createLocustTool } from './locust-tool.ts';

export { type LocustConfig, LocustConfigSchema } from './config.ts';
export { locustEngine, locustVersion } from './engine.ts';
export { locustCommand, locustStopTimeoutS } from './locust-command.ts';
export { locustEntry, locustEntryFile, locustScriptFile } from './locust-entry.ts';
export { locustOutcome } from './locust-exit-codes.ts';
export { locustMetricsHook, locustMetricsModule, locustMetricsPrefix } from './locust-metrics-hook.ts';
export { createLocustParser } from './locust-output-parser.ts';
export { createLocustTool, type LocustToolOptions, validateLocustScript } from './locust-tool.ts';

export default definePlugin({
  name: 'load-tool-locust',
  configSchema: LocustConfigSchema,
  async setup(ctx) {
    // On an agent: LOCUST_BIN, PATH, the venv under ~/.cache/loadplane/locust/<version>, with its version.
    await provideEngineTool(ctx, locustEngine, {
      configuredBinary: ctx.config.binary,
      defaultBinary: 'locust',
      create: ({ binary, which, version }) => createLocustTool({ binary, which, version }),
    });
  },
});
