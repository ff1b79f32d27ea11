/** The `k6` load-tool plugin: runs Grafana k6, which the agent host finds as `k6Engine` declares (or the `binary` config). */
import { definePlugin, engineAvailability, loadToolCapability, locateEngine, programLookupPort } from 'loadplane/plugin';
import { K6ConfigSchema } from './config.ts';
import { k6Engine } from './engine.ts';
import { createK6Tool } from './k6-tool.ts';

export { type K6Config, K6ConfigSchema } from './config.ts';
export { k6Engine } from './engine.ts';
export { k6Command, k6SampleFile, k6ScriptFile } from './k6-command.ts';
export { k6ExitReasons, k6Outcome } from './k6-exit-codes.ts';
export { createK6Parser } from './k6-output-parser.ts';
export { createK6Tool, type K6ToolOptions, validateK6Script } from './k6-tool.ts';

export default definePlugin({
  name: 'load-tool-k6',
  configSchema: K6ConfigSchema,
  async setup(ctx) {
    const which = ctx.has(programLookupPort) ? ctx.use(programLookupPort) : undefined;
    // On an agent: K6_BIN, PATH, ~/.cache/loadplane/bin/k6, with its version. A `binary` other than the default wins.
    const engine = await locateEngine(ctx, k6Engine);
    const binary = ctx.config.binary !== 'k6' ? ctx.config.binary : engine.path;
    const version = engine.found && binary === engine.path ? (engine.version ?? undefined) : undefined;
    const tool = createK6Tool({ binary, which, version });
    // Not found here: the locator's answer says where it looked and how to install it.
    ctx.provide(loadToolCapability, engine.found || binary !== engine.path ? tool : { ...tool, available: async () => engineAvailability(engine) });
  },
});
