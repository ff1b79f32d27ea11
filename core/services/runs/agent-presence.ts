/**
 * Agent presence in the database: the machine row names the socket (connection id) and the replica holding it, with a
 * lease the holder renews. Connected = a live lease; "gone since" = when the lease ended. Nothing else is kept in step.
 */
import type { EntityManager } from '@mikro-orm/core';
import type { Database } from '../../ports/database.ts';
import { placeholders, sqlIn, sqlOf } from '../sql.ts';
import type { RunSettings } from './run-settings.ts';

export interface AgentPresenceDeps {
  db: Database;
  /** This process's id among the replicas: presence rows name it. */
  replicaId: string;
  settings: Pick<RunSettings, 'leaseSeconds'>;
}

export function createAgentPresence(deps: AgentPresenceDeps) {
  const sql = sqlOf(deps.db);
  const lease = () => deps.settings.leaseSeconds;
  // Sockets claimed in the last minute, held or about to be: a renewal racing a claim must not take them for strays.
  const recentClaims = new Map<string, number>();

  return {
    /**
     * This replica now holds the machine's socket; returns the previous holder, if another socket still held it. `tx`: in
     * the transaction that chose the machine (an agent's hello), so a concurrent hello sees it held once that commits.
     */
    async claim(machineId: string, connectionId: string, tx?: EntityManager): Promise<{ replicaId: string; connectionId: string } | null> {
      recentClaims.set(connectionId, Date.now());
      const rows = await (tx ? sqlIn(tx) : sql).all<{ connection_id: string | null; replica_id: string | null }>(
        `with old as (select connection_id, replica_id from machines where id = ? for update)
         update machines set connection_id = ?, replica_id = ?, lease_until = now() + make_interval(secs => ?), last_seen_at = now()
         from old where machines.id = ? returning old.connection_id, old.replica_id`,
        [machineId, connectionId, deps.replicaId, lease(), machineId],
      );
      const old = rows[0];
      return old?.connection_id && old.replica_id && old.connection_id !== connectionId ? { replicaId: old.replica_id, connectionId: old.connection_id } : null;
    },

    /** The socket closed: the machine is offline from now (unless a newer socket took over meanwhile). */
    async release(machineId: string, connectionId: string): Promise<boolean> {
      const rows = await sql.all(
        'update machines set connection_id = null, replica_id = null, lease_until = now() where id = ? and connection_id = ? returning id',
        [machineId, connectionId],
      );
      return rows.length > 0;
    },

    /**
     * One statement renews every socket this replica holds, found by the replica's id rather than by listing 10,000
     * connection ids as parameters. A row that names this replica but no socket held here (its release failed) would be
     * renewed forever: when the counts differ, such rows are released by the list, which is rare and worth its cost.
     */
    async renew(heldConnectionIds: readonly string[]): Promise<void> {
      for (const [id, at] of recentClaims) if (Date.now() - at > 60_000) recentClaims.delete(id);
      const rows = await sql.all<{ renewed: number }>(
        `with renewed as (update machines set lease_until = now() + make_interval(secs => ?), last_seen_at = now()
           where replica_id = ? and connection_id is not null returning 1)
         select count(*)::int as renewed from renewed`,
        [lease(), deps.replicaId],
      );
      if ((rows[0]?.renewed ?? 0) === heldConnectionIds.length) return;
      const keep = [...new Set([...heldConnectionIds, ...recentClaims.keys()])];
      const held = keep.length ? `and connection_id::text not in (${placeholders(keep)})` : '';
      await sql.all(
        `update machines set connection_id = null, replica_id = null, lease_until = now()
         where replica_id = ? and connection_id is not null ${held}`,
        [deps.replicaId, ...keep],
      );
    },
  };
}

export type AgentPresence = ReturnType<typeof createAgentPresence>;
