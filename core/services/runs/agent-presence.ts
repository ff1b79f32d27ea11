/**
 * Agent presence in the database: the machine row names the socket (connection id) and the replica holding it, with a
 * lease the holder renews. Connected = a live lease; "gone since" = when the lease ended. Nothing else is kept in step.
 */
import { placeholders, sqlOf } from '../sql.ts';
import type { RunContext } from './run-context.ts';

export function createAgentPresence(ctx: RunContext) {
  const sql = sqlOf(ctx.db);
  const lease = () => ctx.settings.leaseSeconds;

  return {
    /** This replica now holds the machine's socket; returns the previous holder, if another socket still held it. */
    async claim(machineId: string, connectionId: string): Promise<{ replicaId: string; connectionId: string } | null> {
      const rows = await sql.all<{ connection_id: string | null; replica_id: string | null }>(
        `with old as (select connection_id, replica_id from machines where id = ? for update)
         update machines set connection_id = ?, replica_id = ?, lease_until = now() + make_interval(secs => ?), last_seen_at = now()
         from old where machines.id = ? returning old.connection_id, old.replica_id`,
        [machineId, connectionId, ctx.replicaId, lease(), machineId],
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

    /** One statement renews every socket this replica holds. */
    async renew(connectionIds: readonly string[]): Promise<void> {
      if (connectionIds.length === 0) return;
      await sql.all(
        `update machines set lease_until = now() + make_interval(secs => ?), last_seen_at = now() where connection_id in (${placeholders(connectionIds)})`,
        [lease(), ...connectionIds],
      );
    },
  };
}

export type AgentPresence = ReturnType<typeof createAgentPresence>;
