/** Machine use cases: list, read, register, calibrate and delete machines of the caller's workspace. */
import { type EntityManager, UniqueConstraintViolationException } from '@mikro-orm/core';
import { limitsOf } from '../domain/plans.ts';
import { Machine } from '../domain/entities/machine.ts';
import { normalizeArch, normalizeHostname, normalizeIpAddress, normalizeOs, normalizeRegion } from '../domain/machine-rules.ts';
import { checkName } from '../domain/test-rules.ts';
import { conflict, DomainError } from '../kernel/errors.ts';
import type { HookBus } from '../kernel/hook-bus.ts';
import type { KernelHooks } from '../kernel/hooks.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import type { Caller } from './caller.ts';
import { activeAssignmentStatuses } from '../domain/run-state.ts';
import { placeholders, transaction } from './sql.ts';
import { findInWorkspace, lockWorkspace } from './workspace-scope.ts';

export interface MachineInput {
  name: string;
  hostname: string;
  ip_address: string;
  os?: string;
  arch?: string;
  cpu_cores?: number;
  memory_gb?: number;
  region?: string | null;
}

export interface PageFilter {
  limit: number;
  filter: object;
}

/**
 * The plan's machine limit, when the workspace has reached it: the message saying so, else null. Call it under
 * lockWorkspace, in the transaction that then creates the machine (a registration here, an agent's hello).
 */
export async function machineLimitReached(em: EntityManager, caller: Caller): Promise<string | null> {
  const limit = limitsOf(caller.workspace.plan).machines;
  if (limit === null || (await em.count(Machine, { workspaceId: caller.workspace.workspaceId })) < limit) return null;
  return `the ${caller.workspace.plan} plan allows ${limit} machines`;
}

export function createMachineService(deps: {
  db: Database;
  hooks: HookBus<KernelHooks>;
  /** Asks the machine's agent to calibrate, through whichever replica holds its socket; false when none holds it. */
  requestCalibration?(machineId: string): Promise<boolean>;
}) {
  return {
    async list(caller: Caller, page: PageFilter): Promise<Machine[]> {
      return deps.db.fork().find(
        Machine,
        { workspaceId: caller.workspace.workspaceId, ...page.filter },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit + 1 },
      );
    },

    /** One machine of the caller's workspace; another workspace's id is not found (404), like a made-up one. */
    async get(caller: Caller, id: string): Promise<Machine> {
      return findInWorkspace(deps.db.fork(), Machine, caller.workspace.workspaceId, id, 'machine');
    },

    /**
     * Asks the machine's agent to measure its capacity again (it does once it runs nothing); the figure replaces
     * `benchmark_capacity` when it arrives. A machine without a connected agent is a conflict: nobody could measure.
     */
    async calibrate(caller: Caller, id: string): Promise<Machine> {
      const machine = await findInWorkspace(deps.db.fork(), Machine, caller.workspace.workspaceId, id, 'machine');
      const offline = () => conflict(`machine ${machine.hostname} is offline: its agent must be connected to calibrate`);
      if (machine.status === 'offline' || !deps.requestCalibration) throw offline();
      // The presence may have ended since the read (the socket closed): then nobody was told, and the caller hears so.
      if (!(await deps.requestCalibration(machine.id))) throw offline();
      return machine;
    },

    async create(caller: Caller, input: MachineInput): Promise<Machine> {
      const workspaceId = caller.workspace.workspaceId;
      // Every field is checked before the database is asked anything.
      const hostname = normalizeHostname(input.hostname);
      const fields = {
        name: checkName(input.name),
        ipAddress: normalizeIpAddress(input.ip_address),
        os: normalizeOs(input.os ?? 'linux'),
        arch: normalizeArch(input.arch ?? 'x86_64'),
        cpuCores: input.cpu_cores ?? 0,
        memoryGb: input.memory_gb ?? 0,
        region: normalizeRegion(input.region ?? null),
      };
      const hostnameTaken = () => conflict(`a machine with hostname "${hostname}" is already registered in this workspace`);
      let machine: Machine;
      try {
        machine = await deps.db.fork().transactional(async (em) => {
          // The workspace row's lock makes the plan limit exact when registrations (or agents' hellos) race.
          await lockWorkspace(em, workspaceId);
          // Stored hostnames are normalised to lower case, so equality is the case-insensitive check.
          if (await em.count(Machine, { workspaceId, hostname })) throw hostnameTaken();
          const full = await machineLimitReached(em, caller);
          if (full) throw new DomainError('plan_limit_machines', full);
          const now = new Date();
          const created = em.create(Machine, {
            id: crypto.randomUUID(),
            workspaceId,
            hostname,
            ...fields,
            // Registered by hand: offline until an agent connects for it.
            status: 'offline',
            agentVersion: null,
            lastSeenAt: null,
            tools: [],
            toolVersions: {},
            toolProblems: {},
            // Measured by a calibration run, never given by hand.
            benchmarkCapacity: null,
            createdAt: now,
            updatedAt: now,
          });
          recordAudit(em, caller, 'machine.created', { type: 'machine', id: created.id, label: hostname });
          return created;
        });
      } catch (error) {
        // The unique index still decides should a row of the same hostname come another way.
        if (error instanceof UniqueConstraintViolationException) throw hostnameTaken();
        throw error;
      }
      await deps.hooks.callHook('machine:created', { workspaceId, machineId: machine.id });
      return machine;
    },

    async remove(caller: Caller, id: string): Promise<void> {
      const workspaceId = caller.workspace.workspaceId;
      const machine = await transaction(deps.db, async (tx) => {
        const found = await findInWorkspace(tx.em, Machine, workspaceId, id, 'machine');
        // Locked: a dispatcher claim key-shares the row, so it either committed before (and is counted below) or finds
        // the machine gone. Without the lock a run could be placed on a machine deleted a moment later.
        await tx.all('select id from machines where id = ? for update', [found.id]);
        const active = await tx.all(`select 1 from task_assignments where machine_id = ? and status in (${placeholders(activeAssignmentStatuses)}) limit 1`, [
          found.id,
          ...activeAssignmentStatuses,
        ]);
        if (active.length > 0) {
          throw conflict(`machine ${found.hostname} is running or stopping a task; cancel it (DELETE /tasks/:id) and wait for it to end before deleting the machine`);
        }
        tx.em.remove(found);
        recordAudit(tx.em, caller, 'machine.deleted', { type: 'machine', id: found.id, label: found.hostname });
        return found;
      });
      await deps.hooks.callHook('machine:deleted', { workspaceId, machineId: machine.id });
    },
  };
}

export type MachineService = ReturnType<typeof createMachineService>;
