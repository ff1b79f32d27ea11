/** The `locust` load tool: validates locustfiles, runs Locust headless with this machine's share of the load, reads our hook's snapshots. */
import type { LoadTool, ProgramLookup } from 'loadplane/plugin';
import { locustCommand } from './locust-command.ts';
import { createLocustParser } from './locust-output-parser.ts';
import { checkPythonStructure } from './python-structure.ts';

export interface LocustToolOptions {
  /** The locust executable, as resolved by the host (default `locust`, looked up on PATH when run). */
  binary?: string;
  /** Checks the binary exists; without it `available()` trusts the host and a missing Locust fails at spawn. */
  which?: ProgramLookup;
  /** Locust's version as the host found it, reported by `available()`. */
  version?: string;
}

const importsLocust = /^\s*(from\s+locust(\.\w+)*\s+import\b|import\s+locust\b)/m;
// `class Name(Bases):` where a base names a User class: HttpUser, FastHttpUser, User, or the script's own `BaseUser`.
const classWithBases = /^\s*class\s+\w+\s*\(([^)]*)\)\s*:/gm;

function definesUserClass(script: string): boolean {
  for (const match of script.matchAll(classWithBases)) {
    if (/\w*User\b/.test(match[1]!)) return true;
  }
  return false;
}

/**
 * Null when the script looks like a runnable locustfile: Python that passes a structural check (no Python needed on
 * the server), importing locust, with a User class. Locust reports what this cannot see when the run starts.
 */
export function validateLocustScript(script: string): string | null {
  if (typeof script !== 'string' || script.trim().length === 0) return 'script must not be empty';
  if (script.includes('\0')) return 'script must be text: it contains a NUL byte';
  const syntax = checkPythonStructure(script);
  if (syntax) return `the locustfile is not valid Python: ${syntax}`;
  if (!importsLocust.test(script)) return 'a locustfile must import locust (from locust import HttpUser, task)';
  if (!definesUserClass(script)) return 'a locustfile must define a User class (class MyUser(HttpUser): ...) for Locust to run';
  return null;
}

export function createLocustTool(options: LocustToolOptions = {}): LoadTool {
  const binary = options.binary ?? 'locust';
  return {
    tool: 'locust',
    validateScript: validateLocustScript,
    async available() {
      if (!options.which) return { ok: true };
      const path = await options.which(binary);
      if (!path) return { ok: false, reason: `locust not found ("${binary}"): install Locust, put it on PATH or set LOCUST_BIN` };
      return options.version ? { ok: true, version: options.version } : { ok: true };
    },
    command: (assignment) => locustCommand(assignment, binary),
    createParser: () => createLocustParser(),
  };
}
