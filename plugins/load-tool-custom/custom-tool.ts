/** The `custom` load tool: any executable script; its output lines are the log, `loadplane:sample` lines its metrics. */
import type { LoadTool, ProgramLookup } from 'loadplane/plugin';
import { customCommand } from './custom-command.ts';
import { createCustomParser } from './custom-parser.ts';

export interface CustomToolOptions {
  /** Checks that `sh` exists on the agent; without it the tool trusts the host (every POSIX machine has sh). */
  which?: ProgramLookup;
}

export function validateCustomScript(script: string): string | null {
  if (typeof script !== 'string' || script.trim().length === 0) return 'script must not be empty';
  // A NUL byte cannot be passed through a file to an interpreter meaningfully; it is a binary or a paste accident.
  if (script.includes('\0')) return 'script must be text: it contains a NUL byte';
  return null;
}

export function createCustomTool(options: CustomToolOptions = {}): LoadTool {
  return {
    tool: 'custom',
    validateScript: validateCustomScript,
    async available() {
      if (!options.which) return { ok: true };
      return (await options.which('sh')) ? { ok: true } : { ok: false, reason: 'sh not found on PATH' };
    },
    command: customCommand,
    createParser: () => createCustomParser(),
  };
}
