/**
 * The built-in `http` load tool: native HTTP steps (YAML or JSON), run by our own engine, a module of this plugin that
 * the agent runs with its own runtime. It runs no code of the test's author, so every agent offers it, sandbox or not.
 */
import type { LoadTool } from 'loadplane/plugin';
import { httpCommand } from './http-command.ts';
import { createHttpParser } from './http-output-parser.ts';
import { validateHttpScript } from './http-script.ts';

/** The engine's entry, found the runtime-agnostic way (the host turns it into a command). */
export const engineModule = new URL('./engine/main.ts', import.meta.url);

export interface HttpToolOptions {
  /** The argv prefix that runs `engineModule` (the host's module runtime); without it the tool cannot run here. */
  engine?: readonly string[];
}

export function createHttpTool(options: HttpToolOptions = {}): LoadTool {
  const engine = options.engine;
  return {
    tool: 'http',
    runsAuthorCode: false,
    validateScript: validateHttpScript,
    async available() {
      return engine ? { ok: true } : { ok: false, reason: 'this host cannot start the http engine (it provides no module runtime)' };
    },
    command(assignment) {
      if (!engine) throw new Error('this host cannot start the http engine (it provides no module runtime)');
      return httpCommand(assignment, engine);
    },
    createParser: () => createHttpParser(),
  };
}
