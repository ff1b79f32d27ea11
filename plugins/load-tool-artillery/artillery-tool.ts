/** The `artillery` load tool: validates Artillery scripts, runs `artillery run` with this machine's share of the load as phases, reads our plugin's snapshots. */
import type { LoadTool, ProgramLookup } from 'loadplane/plugin';
import { artilleryCommand } from './artillery-command.ts';
import { createArtilleryParser } from './artillery-output-parser.ts';
import { validateArtilleryScript } from './artillery-script-check.ts';

export interface ArtilleryToolOptions {
  /** The artillery executable, as resolved by the host (default `artillery`, looked up on PATH when run). */
  binary?: string;
  /** Checks the binary exists; without it `available()` trusts the host and a missing Artillery fails at spawn. */
  which?: ProgramLookup;
  /** Artillery's version as the host found it, reported by `available()`. */
  version?: string;
}

export function createArtilleryTool(options: ArtilleryToolOptions = {}): LoadTool {
  const binary = options.binary ?? 'artillery';
  return {
    tool: 'artillery',
    validateScript: validateArtilleryScript,
    async available() {
      if (!options.which) return { ok: true };
      const path = await options.which(binary);
      if (!path) return { ok: false, reason: `artillery not found ("${binary}"): install Artillery, put it on PATH or set ARTILLERY_BIN` };
      return options.version ? { ok: true, version: options.version } : { ok: true };
    },
    command: (assignment) => artilleryCommand(assignment, binary),
    createParser: () => createArtilleryParser(),
  };
}
