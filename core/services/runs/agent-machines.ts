/**
 * Which machine an agent's hello stands for, and its presence taken in the same transaction. An agent with a machine key
 * gets the machine of that key; else a machine of its hostname that nobody else holds (a reinstalled agent, or one from
 * before keys, keeps its machine); else its own new machine, named `<hostname>-2`, `-3` ... when another agent's machine
 * holds the hostname. So two agents with one hostname are two machines, never one taken back and forth.
 */
import type { EntityManager } from '@mikro-orm/core';
import { Machine } from '../../domain/entities/machine.ts';
import type { Caller } from '../caller.ts';
import { machineLimitReached } from '../machines.ts';
import { sqlIn } from '../sql.ts';
import { lockWorkspace } from '../workspace-scope.ts';
import type { AgentPresence } from './agent-presence.ts';
import { machineTakenCloseCode } from '../../agent/protocol.ts';
import type { Database } from '../../ports/database.ts';

/** What a hello reports; `region` only when the agent named one (else the machine keeps its own). */
type Details = Pick<Machine, 'ipAddress' | 'os' | 'arch' | 'cpuCores' | 'memoryGb' | 'agentVersion' | 'tools' | 'toolVersions' | 'toolProblems' | 'lastSeenAt' | 'updatedAt'> & {
  region?: string | null;
};

export interface HelloIdentity {
  /** Normalized. */
  hostname: string;
  name?: string;
  machineKey?: string;
}

export type HelloMachine =
  | { ok: true; machine: Machine; previous: { replicaId: string; connectionId: string } | null }
  | { ok: false; code: number; reason: string; message: string };

/** SHA-256 of the key, hex: the row never holds what would let a reader of the database pose as the agent. */
async function keyHash(key: string): Promise<string> {
  const digest = await crypto.subtle.digest('SHA-256', new TextEncoder().encode(key));
  return [...new Uint8Array(digest)].map((byte) => byte.toString(16).padStart(2, '0')).join('');
}

/** `web-2.example.com` for `web.example.com`: the first label gets the number, cut so the name stays a valid host name. */
export function numberedHostname(hostname: string, n: number): string {
  const dot = hostname.indexOf('.');
  const label = dot < 0 ? hostname : hostname.slice(0, dot);
  const rest = dot < 0 ? '' : hostname.slice(dot);
  const suffix = `-${n}`;
  const room = Math.min(63, 253 - rest.length) - suffix.length;
  return `${label.slice(0, room).replace(/-+$/, '')}${suffix}${rest}`;
}

/** The first of `<hostname>-2`, `-3` ... that no machine of the workspace has (under the workspace lock). */
async function nextFreeHostname(em: EntityManager, workspaceId: string, hostname: string): Promise<string> {
  // Every name with the same domain part: a numbered name differs only in its first label.
  const dot = hostname.indexOf('.');
  const rows = await sqlIn(em).all<{ hostname: string }>('select hostname from machines where workspace_id = ? and hostname like ?', [
    workspaceId,
    dot < 0 ? '%' : `%${hostname.slice(dot)}`,
  ]);
  const taken = new Set(rows.map((row) => row.hostname));
  for (let n = 2; ; n++) if (!taken.has(numberedHostname(hostname, n))) return numberedHostname(hostname, n);
}

export async function machineForHello(
  db: Database,
  presence: AgentPresence,
  caller: Caller,
  hello: HelloIdentity,
  details: Details,
  connectionId: string,
): Promise<HelloMachine> {
  const workspaceId = caller.workspace.workspaceId;
  const { hostname } = hello;
  const hash = hello.machineKey ? await keyHash(hello.machineKey) : null;
  return db.fork().transactional(async (em): Promise<HelloMachine> => {
    const held = async (machine: Machine): Promise<HelloMachine> => {
      Object.assign(machine, details);
      // Written before the presence, which is raw SQL on the same row (a new row must exist for it).
      await em.flush();
      return { ok: true, machine, previous: await presence.claim(machine.id, connectionId, em) };
    };
    // The usual reconnect: this key's machine under its own name, or a keyless agent's machine. No workspace lock.
    const quick = hash ? await em.findOne(Machine, { workspaceId, agentKeyHash: hash }) : await em.findOne(Machine, { workspaceId, hostname });
    if (quick && (hash ? quick.hostname === hostname : quick.agentKeyHash === null)) return held(quick);

    // Under the workspace row's lock, hellos of one workspace choose one at a time, on every replica: two agents with
    // one hostname cannot both take a free machine or both create one, and the plan's limit stays exact.
    // Read again under it (`refresh`: not the copies read before the lock).
    await lockWorkspace(em, workspaceId);
    const holder = await em.findOne(Machine, { workspaceId, hostname }, { refresh: true });
    const othersOnline = holder !== null && holder.status !== 'offline';
    if (!hash) {
      if (holder?.agentKeyHash && othersOnline) {
        return {
          ok: false,
          code: machineTakenCloseCode,
          reason: 'hostname in use',
          message: `the machine ${hostname} belongs to another agent, which is connected; start this agent with another --hostname (or upgrade it: an agent with a machine key gets a machine of its own)`,
        };
      }
      if (holder) return held(holder);
    } else {
      const mine = await em.findOne(Machine, { workspaceId, agentKeyHash: hash }, { refresh: true });
      if (mine) {
        // The agent asks for another name (--hostname): it follows when no other machine has that name.
        if (!holder) mine.hostname = hostname;
        return held(mine);
      }
      // Nobody else's: a machine registered by hand or by an agent without a key, or one whose agent is gone (this
      // agent reinstalled with a new key). It keeps its id, runs and name.
      if (holder && (holder.agentKeyHash === null || !othersOnline)) {
        holder.agentKeyHash = hash;
        return held(holder);
      }
    }
    const full = await machineLimitReached(em, caller);
    if (full) return { ok: false, code: 4403, reason: 'plan limit', message: full };
    const chosen = holder ? await nextFreeHostname(em, workspaceId, hostname) : hostname;
    const machine = em.create(Machine, {
      id: crypto.randomUUID(),
      workspaceId,
      name: hello.name?.trim() || chosen,
      hostname: chosen,
      createdAt: details.updatedAt,
      connectionId: null,
      replicaId: null,
      leaseUntil: null,
      agentKeyHash: hash,
      region: null,
      benchmarkCapacity: null,
      ...details,
    });
    return held(machine);
  });
}
