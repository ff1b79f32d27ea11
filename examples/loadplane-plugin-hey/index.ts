/**
 * loadplane-plugin-hey: the `hey` load tool (github.com/rakyll/hey) for Loadplane, a third-party plugin in its own
 * package. The control plane validates scripts with it and knows the tool id `hey`; an agent finds the hey binary as
 * `heyEngine` declares, runs it with its share of the load and reads hey's CSV into mergeable histograms.
 */
import { definePlugin, type EngineSpec, type LoadTool, provideEngineTool } from 'loadplane/plugin';
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
  // hey has no --version: Loadplane's scripts/engines/hey.sh writes the version it built next to the binary.
  version: { file: 'bin/hey.version' },
  install: 'hey',
  hint: 'go install github.com/rakyll/hey@v0.1.4 and put it on PATH',
};

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
  async setup(ctx) {
    await provideEngineTool(ctx, heyEngine, { create: ({ binary, version }) => createHeyTool({ binary, version }) });
  },
});
