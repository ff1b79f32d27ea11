/** The `k6` load-tool plugin: runs Grafana k6 (its binary from the `binary` config the agent host resolves). */
import { loadToolCapability } from '../../core/capabilities/load-tool.ts';
import { definePlugin } from '../../core/kernel/define-plugin.ts';
import { programLookupPort } from '../../core/ports/program-lookup.ts';
import { K6ConfigSchema } from './config.ts';
import { createK6Tool } from './k6-tool.ts';

export { type K6Config, K6ConfigSchema } from './config.ts';
export { k6Command, k6SampleFile, k6ScriptFile } from './k6-command.ts';
export { k6ExitReasons, k6Outcome } from './k6-exit-codes.ts';
export { createK6Parser } from './k6-output-parser.ts';
export { createK6Tool, type K6ToolOptions, validateK6Script } from './k6-tool.ts';

export default definePlugin({
  name: 'load-tool-k6',
  configSchema: K6ConfigSchema,
  setup(ctx) {
    const which = ctx.has(programLookupPort) ? ctx.use(programLookupPort) : undefined;
    ctx.provide(loadToolCapability, createK6Tool({ binary: ctx.config.binary, which }));
  },
});
