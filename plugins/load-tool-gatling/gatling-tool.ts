/** The `gatling` load tool: validates Java and Scala simulations, runs them with Loadplane's Gatling launcher, reads its metrics lines. */
import { engineAvailability, type LoadTool, type LocatedEngine } from 'loadplane/plugin';
import { gatlingCommand } from './gatling-command.ts';
import { createGatlingParser } from './gatling-output-parser.ts';
import { validateGatlingScript } from './gatling-script.ts';

/** The tool, given where its launcher is (on the control plane: not looked for, and never run). */
export function createGatlingTool(engine: LocatedEngine): LoadTool {
  return {
    tool: 'gatling',
    validateScript: validateGatlingScript,
    available: async () => engineAvailability(engine),
    command: (assignment) => gatlingCommand(assignment, engine.path),
    createParser: () => createGatlingParser(),
  };
}
