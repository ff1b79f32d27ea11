/**
 * The agent's state directory: its machine key, the random identity that makes it one machine to the service whatever
 * its hostname (two agents with one hostname are two machines), and a lock, so two running agents never share a key
 * through one directory. `AGENT_STATE_DIR`, else `$XDG_STATE_HOME/loadplane-agent`, else `~/.local/state/loadplane-agent`.
 */
import { chmodSync, mkdirSync, readFileSync, renameSync, unlinkSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join, resolve } from 'node:path';

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
/** Directories this process holds (an agent in the service's process, or several in a test). */
const heldHere = new Set<string>();

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

function readText(path: string): string | null {
  try {
    return readFileSync(path, 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
    throw error;
  }
}

/** Linux's id of this boot: a lock from another boot (a reboot, a cloned VM) names a process that no longer exists. */
function bootId(): string {
  return readText('/proc/sys/kernel/random/boot_id')?.trim() ?? '';
}

/** When the process started (clock ticks since boot), so a recycled pid is not taken for the agent that held the lock. */
function startTicks(pid: number): string {
  const stat = readText(`/proc/${pid}/stat`);
  return stat ? (stat.slice(stat.lastIndexOf(')') + 2).split(' ')[19] ?? '') : '';
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

interface Lock {
  pid: number;
  boot: string;
  start: string;
}

function lockHeld(dir: string, lock: Lock): boolean {
  if (lock.pid === process.pid) return heldHere.has(dir);
  if (lock.boot && bootId() && lock.boot !== bootId()) return false;
  if (!alive(lock.pid)) return false;
  const start = startTicks(lock.pid);
  return !lock.start || !start || lock.start === start;
}

function parseLock(text: string | null): Lock | null {
  try {
    const lock = JSON.parse(text ?? '') as Lock;
    return Number.isInteger(lock.pid) ? lock : null;
  } catch {
    return null;
  }
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
  const lockPath = join(path, lockFile);
  const held = parseLock(readText(lockPath));
  if (held && lockHeld(path, held)) {
    throw new AgentStateError(
      `another agent (pid ${held.pid}) runs with the state directory ${path}; give each agent on a machine its own (--state-dir DIR or AGENT_STATE_DIR), so each is a machine of its own`,
    );
  }
  writeAtomically(lockPath, JSON.stringify({ pid: process.pid, boot: bootId(), start: startTicks(process.pid) } satisfies Lock));
  heldHere.add(path);

  const release = () => {
    if (!heldHere.delete(path)) return;
    // Only our own lock: a directory taken over meanwhile (a lock thought stale) keeps its holder's.
    if (parseLock(readText(lockPath))?.pid !== process.pid) return;
    try {
      unlinkSync(lockPath);
    } catch {
      // already gone
    }
  };

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
