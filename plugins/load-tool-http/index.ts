/** The built-in `http` load-tool plugin: native HTTP steps, run by its own engine with the agent's runtime (no install). */
import { definePlugin, loadToolCapability, moduleRuntimePort } from 'loadplane/plugin';
import { createHttpTool, engineModule } from './http-tool.ts';

export { createHttpTool, engineModule, type HttpToolOptions } from './http-tool.ts';
export { httpCommand, planFile } from './http-command.ts';
export { defaultTimeoutMs, httpPlan, loadSegments } from './http-plan.ts';
export { createHttpParser, httpOutcome } from './http-output-parser.ts';
export { httpMethods, maxSteps, parseHttpScript, validateHttpScript } from './http-script.ts';

export default definePlugin({
  name: 'load-tool-http',
  setup(ctx) {
    // Asked here, in setup, so an agent makes the engine readable inside its tool sandbox. The server has no module
    // runtime: it only validates scripts and knows the tool id.
    const engine = ctx.has(moduleRuntimePort) ? ctx.use(moduleRuntimePort).command(engineModule, 'load-tool-http/engine') : undefined;
    ctx.provide(loadToolCapability, createHttpTool({ engine }));
  },
});
