/** The `k6` load-tool plugin: runs Grafana k6, which the agent host finds as `k6Engine` declares (or the `binary` config). */
import { definePlugin, provideEngineTool } from 'loadplane/plugin';
import { K6ConfigSchema } from './config.ts';
import { k6Engine, k6OutputExtensionName, k6OutputProbe } from './engine.ts';
import { createK6Tool } from './k6-tool.ts';

export { type K6Config, K6ConfigSchema } from './config.ts';
export { k6Engine, k6OutputExtensionName, k6OutputProbe } from './engine.ts';
export { k6Command, type K6CommandOptions, k6SampleFile, k6ScriptFile } from './k6-command.ts';
export { k6ExitReasons, k6Outcome } from './k6-exit-codes.ts';
export { createK6Parser } from './k6-output-parser.ts';
export { k6SnapshotPrefix, readK6Snapshot } from './k6-snapshot.ts';
export { createK6Tool, type K6ToolOptions, validateK6Script } from './k6-tool.ts';

export default definePlugin({
  name: 'load-tool-k6',
  configSchema: K6ConfigSchema,
  async setup(ctx) {
    // On an agent: K6_BIN, PATH, ~/.cache/loadplane/bin/k6, with its version. A `binary` other than the default wins.
    await provideEngineTool(ctx, k6Engine, {
      configuredBinary: ctx.config.binary,
      defaultBinary: 'k6',
      // Our build (scripts/engines/k6.sh) has the loadplane output; any other k6 still runs, through JSON samples.
      extension: { probe: k6OutputProbe, name: k6OutputExtensionName },
      create: ({ binary, which, version, extension }) => createK6Tool({ binary, which, version, snapshots: extension }),
    });
  },
});
