/** The `gatling` load-tool plugin: runs Gatling 3.13 Java or Scala simulations through Loadplane's launcher, found as `gatlingEngine` declares. */
import { definePlugin, provideEngineTool } from 'loadplane/plugin';
import { GatlingConfigSchema } from './config.ts';
import { gatlingEngine } from './engine.ts';
import { createGatlingTool } from './gatling-tool.ts';

export { type GatlingConfig, GatlingConfigSchema } from './config.ts';
export { gatlingEngine, gatlingVersion } from './engine.ts';
export { gatlingCommand, gatlingConf, loadProperties } from './gatling-command.ts';
export { gatlingExitCodes, gatlingOutcome } from './gatling-exit-codes.ts';
export { createGatlingParser, metricsPrefix } from './gatling-output-parser.ts';
export { type GatlingSimulation, parseGatlingScript, validateGatlingScript } from './gatling-script.ts';
export { createGatlingTool, type GatlingToolOptions } from './gatling-tool.ts';

export default definePlugin({
  name: 'load-tool-gatling',
  configSchema: GatlingConfigSchema,
  async setup(ctx) {
    // On an agent: GATLING_BIN, PATH, ~/.cache/loadplane/gatling/<version>/bin/gatling, with its version.
    await provideEngineTool(ctx, gatlingEngine, {
      configuredBinary: ctx.config.launcher,
      defaultBinary: 'gatling',
      // A `launcher` other than the default is the operator's choice: trusted as it is (no PATH check), version unknown.
      create: ({ binary, version }) => createGatlingTool({ launcher: binary, version }),
    });
  },
});
