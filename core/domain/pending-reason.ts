/** Why a pending task waits, in words (contract: "A pending task says why"), from what the dispatcher saw. */

export type WaitingCause =
  /** No machine of the workspace has a live agent. */
  | { kind: 'no-machine-online' }
  /** Machines are online, none offers the tool; `problem`: what one of them said about it (the way to install it). */
  | { kind: 'tool-not-offered'; tool: string; problem: { machine: string; reason: string } | null }
  /** Machines the task names whose agent is not connected. */
  | { kind: 'machines-offline'; machines: readonly string[] }
  /** Machines the task names that are online but have a run (or were just given one). */
  | { kind: 'machines-busy'; machines: readonly string[]; ahead: number }
  /** Machines with the tool are online, none is free. */
  | { kind: 'no-free-machine'; ahead: number };

/** A few names, then how many more: a task may name 50 machines. */
function names(list: readonly string[]): string {
  const shown = list.slice(0, 3);
  const rest = list.length - shown.length;
  if (rest > 0) return `${shown.join(', ')} and ${rest} more`;
  return shown.length > 1 ? `${shown.slice(0, -1).join(', ')} and ${shown[shown.length - 1]}` : (shown[0] ?? '');
}

const aheadText = (ahead: number) => (ahead > 0 ? ` (${ahead} ${ahead === 1 ? 'task' : 'tasks'} ahead)` : '');

/** An agent's words on one line: the reason ends up in a log line and an SSE comment. */
const oneLine = (text: string) => text.replace(/\s+/g, ' ').trim();

export function describeWaiting(cause: WaitingCause): string {
  switch (cause.kind) {
    case 'no-machine-online':
      return 'no machine of this workspace is online';
    case 'tool-not-offered':
      return cause.problem
        ? `no online machine offers ${cause.tool}: on ${cause.problem.machine}, ${oneLine(cause.problem.reason)}`
        : // An agent that did not say why (an older one): where to look.
          `no online machine offers ${cause.tool}: install it on one and restart its agent (at start the agent lists the tools it found and how to install the others)`;
    case 'machines-offline':
      return cause.machines.length === 1 ? `machine ${cause.machines[0]} is offline` : `machines ${names(cause.machines)} are offline`;
    case 'machines-busy':
      return `waiting for ${cause.machines.length === 1 ? 'machine' : 'machines'} ${names(cause.machines)} to be free${aheadText(cause.ahead)}`;
    case 'no-free-machine':
      return `waiting for a free machine${aheadText(cause.ahead)}`;
  }
}

/**
 * The reason without its count of tasks ahead: the server log says when a task starts waiting and when the cause
 * changes, not each time the queue in front of it moves (a queue of 1,000 draining would write half a million lines).
 */
export const causeOf = (reason: string | null): string | null => reason?.replace(/ \(\d+ tasks? ahead\)$/, '') ?? null;

/** A machine a task names, as the dispatcher read it. */
export interface NamedMachine {
  name: string;
  connected: boolean;
  /** Connected, with no active assignment, and not just given to another task of the same pass. */
  free: boolean;
}

/**
 * Why a task that names its machines waits: some are offline, or busy. Null when every one is free and nothing is
 * ahead (it starts at the next pass, or it failed: a machine gone or without the tool fails it).
 */
export function namedCause(machines: readonly NamedMachine[], ahead: number): WaitingCause | null {
  const offline = machines.filter((m) => !m.connected);
  if (offline.length > 0) return { kind: 'machines-offline', machines: offline.map((m) => m.name) };
  const busy = machines.filter((m) => !m.free);
  // All free but others ahead will take them first: they are what it waits for.
  if (busy.length > 0 || ahead > 0) return { kind: 'machines-busy', machines: (busy.length > 0 ? busy : machines).map((m) => m.name), ahead };
  return null;
}

/** The workspace's machines as far as one tool goes. */
export interface PoolFacts {
  /** Some machine of the workspace is online. */
  online: boolean;
  /** Some online machine offers the tool (so all such are busy, or taken by tasks ahead). */
  offered: boolean;
  /** What an online machine that lacks the tool said about it. */
  problem: { machine: string; reason: string } | null;
}

/** Why a task that takes any machine with its tool waits. */
export function poolCause(facts: PoolFacts, tool: string, ahead: number): WaitingCause {
  if (!facts.online) return { kind: 'no-machine-online' };
  if (!facts.offered) return { kind: 'tool-not-offered', tool, problem: facts.problem };
  return { kind: 'no-free-machine', ahead };
}
