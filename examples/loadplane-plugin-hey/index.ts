/**
 * loadplane-plugin-hey: the `hey` load tool (github.com/rakyll/hey) for Loadplane, a third-party plugin in its own
 * package. The control plane validates scripts with it and knows the tool id `hey`; an agent finds the hey binary as
 * `heyEngine` declares, runs it with its share of the load and reads hey's CSV into mergeable histograms.
 */
import { definePlugin, type EngineSpec, type LoadTool, provideEngineTool, type Static, Type } from '@loadplane/plugin-kit';
import { heyCommand, heyPlan } from './hey-command.ts';
import { createHeyParser } from './hey-parser.ts';
import { parseHeyScript } from './hey-script.ts';

export { heyCommand, heyPlan } from './hey-command.ts';
export { createHeyParser, csvHeader } from './hey-parser.ts';
export { type HeyScript, parseHeyScript } from './hey-script.ts';

/** Where an agent finds hey: HEY_BIN, PATH, or ~/.cache/loadplane/bin/hey with the version its installer wrote. */
export const heyEngine: EngineSpec = {
  name: 'hey',
  program: 'hey',
  envVar: 'HEY_BIN',
  cached: ['bin/hey'],
  // hey has no --version: this plugin's install-engine.sh writes the version it built next to the binary.
  version: { file: 'bin/hey.version' },
  install: 'hey',
  hint: 'run the install-engine.sh of this plugin (bin loadplane-plugin-hey-install-engine), or go install github.com/rakyll/hey@v0.1.4 and put it on PATH',
};

/**
 * The plugin's settings: LOADPLANE_PLUGIN_LOADPLANE_PLUGIN_HEY_BINARY (or LOADPLANE_CONFIG's plugins."loadplane-plugin-hey")
 * on the server and on each agent.
 */
export const heyConfigSchema = Type.Object({
  binary: Type.String({
    minLength: 1,
    default: 'hey',
    description: 'the hey executable: a path, or a name looked up on PATH; left at hey, the agent finds it (HEY_BIN, PATH, ~/.cache/loadplane/bin/hey)',
  }),
});

export type HeyConfig = Static<typeof heyConfigSchema>;

export function validateHeyScript(script: string): string | null {
  try {
    parseHeyScript(script);
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

/**
 * The tool, given its binary and version as the host found them (on the control plane: not looked for, and never
 * run). `available()` trusts them: the plugin's setup (provideEngineTool) answers for an engine the host did not find.
 */
export function createHeyTool(engine: { binary: string; version?: string }): LoadTool {
  return {
    tool: 'hey',
    validateScript: validateHeyScript,
    available: async () => (engine.version ? { ok: true, version: engine.version } : { ok: true }),
    command: (assignment) => heyCommand(assignment, engine.binary),
    createParser: (assignment) => createHeyParser({ expectedRequests: heyPlan(assignment).expectedRequests }),
  };
}

export default definePlugin({
  name: 'loadplane-plugin-hey',
  configSchema: heyConfigSchema,
  async setup(ctx) {
    // A binary other than the default is the operator's choice and wins over the one the agent finds (its version unknown).
    await provideEngineTool(ctx, heyEngine, {
      configuredBinary: ctx.config.binary,
      defaultBinary: 'hey',
      create: ({ binary, version }) => createHeyTool({ binary, version }),
    });
  },
});
