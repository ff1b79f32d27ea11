/**
 * The agent's state directory: its machine key, the random identity that makes it one machine to the service whatever
 * its hostname (two agents with one hostname are two machines), and a lock, so two running agents never share a key
 * through one directory. `AGENT_STATE_DIR`, else `$XDG_STATE_HOME/loadplane-agent`, else `~/.local/state/loadplane-agent`.
 */
import { chmodSync, mkdirSync, renameSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { readText, takeLock } from '../files/process-lock.ts';

/** A refusal to start, in words for the person at the terminal. */
export class AgentStateError extends Error {}

export interface AgentIdentity {
  /** Where the key lives. */
  dir: string;
  /** The current key. */
  readonly machineKey: string;
  /** A new key in place of the old (another agent connected with it: a cloned VM or directory), kept in the directory. */
  renewMachineKey(): string;
  /** Gives the lock up (the agent stops). */
  release(): void;
}

export function defaultStateDir(env: Record<string, string | undefined>): string {
  if (env.AGENT_STATE_DIR?.trim()) return resolve(env.AGENT_STATE_DIR.trim());
  const base = env.XDG_STATE_HOME?.trim() ? env.XDG_STATE_HOME.trim() : join(homedir(), '.local/state');
  return join(base, 'loadplane-agent');
}

const keyFile = 'machine-key';
const lockFile = 'agent.lock';
const keyPattern = /^[A-Za-z0-9_-]{16,200}$/;

function newKey(): string {
  const bytes = crypto.getRandomValues(new Uint8Array(32));
  return btoa(String.fromCharCode(...bytes)).replaceAll('+', '-').replaceAll('/', '_').replace(/=+$/, '');
}

/** Written whole or not at all (a crash mid-write must not leave half a key), readable by the agent's user only. */
function writeAtomically(path: string, text: string) {
  const temporary = `${path}.${process.pid}.tmp`;
  writeFileSync(temporary, text, { mode: 0o600 });
  renameSync(temporary, path);
}

/**
 * Opens (or creates) the state directory `dir`: takes its lock and reads its machine key, making one on the first start.
 * Throws AgentStateError when another running agent holds the directory or the key file is not a key.
 */
export function openAgentState(dir: string): AgentIdentity {
  const path = resolve(dir);
  try {
    mkdirSync(path, { recursive: true, mode: 0o700 });
    // The key is the agent's identity: nobody else on the machine needs to read it.
    chmodSync(path, 0o700);
  } catch (error) {
    throw new AgentStateError(`the agent's state directory ${path} cannot be used: ${(error as Error).message} (choose another with --state-dir or AGENT_STATE_DIR)`);
  }
  const lock = takeLock(join(path, lockFile), 'a running Loadplane agent');
  if ('heldBy' in lock) {
    throw new AgentStateError(
      `another agent (pid ${lock.heldBy.pid}) runs with the state directory ${path}; give each agent on a machine its own (--state-dir DIR or AGENT_STATE_DIR), so each is a machine of its own`,
    );
  }
  const release = () => lock.release();

  const keyPath = join(path, keyFile);
  let machineKey = readText(keyPath)?.trim() ?? null;
  if (machineKey === null) {
    machineKey = newKey();
    writeAtomically(keyPath, `${machineKey}\n`);
  } else if (!keyPattern.test(machineKey)) {
    release();
    throw new AgentStateError(`${keyPath} does not hold a machine key; delete it to give this agent a new identity (a new machine, unless its hostname's machine is offline)`);
  }
  return {
    dir: path,
    get machineKey() {
      return machineKey!;
    },
    renewMachineKey() {
      machineKey = newKey();
      try {
        writeAtomically(keyPath, `${machineKey}\n`);
      } catch {
        // Kept in memory: this agent is its own machine until it restarts, then meets its clone's key once more.
      }
      return machineKey;
    },
    release,
  };
}
