/** The `gatling` load tool: validates Java and Scala simulations, runs them with Loadplane's Gatling launcher, reads its metrics lines. */
import type { LoadTool } from 'loadplane/plugin';
import { gatlingCommand } from './gatling-command.ts';
import { createGatlingParser } from './gatling-output-parser.ts';
import { validateGatlingScript } from './gatling-script.ts';

export interface GatlingToolOptions {
  /** Loadplane's Gatling launcher: a path, or a name on PATH. Default `gatling`. */
  launcher?: string;
  /** Gatling's version as the host found it, reported by `available()`. */
  version?: string;
}

/**
 * The tool, given its launcher (on the control plane: not looked for, and never run). `available()` trusts it: the
 * plugin's setup (provideEngineTool) answers for a launcher the host did not find.
 */
export function createGatlingTool(options: GatlingToolOptions = {}): LoadTool {
  const launcher = options.launcher ?? 'gatling';
  return {
    tool: 'gatling',
    validateScript: validateGatlingScript,
    available: async () => (options.version ? { ok: true, version: options.version } : { ok: true }),
    command: (assignment) => gatlingCommand(assignment, launcher),
    createParser: () => createGatlingParser(),
  };
}
