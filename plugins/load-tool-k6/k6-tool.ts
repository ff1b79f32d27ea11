/**
 * The `k6` load tool: validates k6 scripts, runs `k6 run` with this machine's share of the load, reads its metrics
 * (the loadplane output's snapshots, or JSON samples from a k6 without it).
 */
import type { LoadTool, ProgramLookup } from 'loadplane/plugin';
import { k6Command } from './k6-command.ts';
import { createK6Parser } from './k6-output-parser.ts';

export interface K6ToolOptions {
  /** The k6 executable, as resolved by the host (default `k6`, looked up on PATH when run). */
  binary?: string;
  /** Checks the binary exists; without it `available()` trusts the host and a missing k6 fails at spawn. */
  which?: ProgramLookup;
  /** k6's version as the host found it, reported by `available()`. */
  version?: string;
  /** The binary has the loadplane output extension: runs aggregate inside k6 (`--out loadplane`), not through JSON. */
  snapshots?: boolean;
}

// A default function, the functions scenarios `exec`, or (rarely) CommonJS exports: any one will do.
const exportsSomething = /\bexport\s+(default\b|(async\s+)?function\b|const\b|let\b|var\b|\{)|\bmodule\.exports\b|\bexports\.\w+/;

export function validateK6Script(script: string): string | null {
  if (typeof script !== 'string' || script.trim().length === 0) return 'script must not be empty';
  if (script.includes('\0')) return 'script must be text: it contains a NUL byte';
  if (!exportsSomething.test(script)) {
    return 'a k6 script must export a default function (export default function () { ... }) or the functions its scenarios run';
  }
  return null;
}

export function createK6Tool(options: K6ToolOptions = {}): LoadTool {
  const binary = options.binary ?? 'k6';
  return {
    tool: 'k6',
    validateScript: validateK6Script,
    async available() {
      if (!options.which) return { ok: true };
      const path = await options.which(binary);
      if (!path) return { ok: false, reason: `k6 not found ("${binary}"): install k6, put it on PATH or set K6_BIN` };
      return options.version ? { ok: true, version: options.version } : { ok: true };
    },
    command: (assignment) => k6Command(assignment, binary, { snapshots: options.snapshots === true }),
    createParser: () => createK6Parser(),
  };
}
