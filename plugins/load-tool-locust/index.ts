/** The `locust` load-tool plugin: runs Locust (from PyPI), which the agent host finds as `locustEngine` declares (or the `binary` config). */
import { definePlugin, engineAvailability, loadToolCapability, locateEngine, programLookupPort } from 'loadplane/plugin';
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
    const which = ctx.has(programLookupPort) ? ctx.use(programLookupPort) : undefined;
    // On an agent: LOCUST_BIN, PATH, the venv under ~/.cache/loadplane/locust/<version>, with its version.
    const engine = await locateEngine(ctx, locustEngine);
    const binary = ctx.config.binary !== 'locust' ? ctx.config.binary : engine.path;
    const version = engine.found && binary === engine.path ? (engine.version ?? undefined) : undefined;
    const tool = createLocustTool({ binary, which, version });
    ctx.provide(loadToolCapability, engine.found || binary !== engine.path ? tool : { ...tool, available: async () => engineAvailability(engine) });
  },
});
