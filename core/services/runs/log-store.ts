/** Stores run logs in batches (one INSERT per batch), bounded per task with a single truncation marker. */
import type { Database } from '../../ports/database.ts';

export interface LogLine {
  source: 'out' | 'err';
  text: string;
  ts: number;
}

export interface StoredLine extends LogLine {
  id: number;
  machineId: string | null;
}

export interface LogStore {
  /** Stores what fits under the limit; returns the ids of stored lines in order (null for lines only streamed). */
  append(taskId: string, machineId: string | null, lines: readonly LogLine[]): Promise<(number | null)[]>;
  /** Lines after `afterId`, oldest first. */
  read(taskId: string, afterId: number, limit: number): Promise<StoredLine[]>;
}

const maxLineChars = 16 * 1024;

export function createLogStore(db: Database, maxLinesPerTask = 100_000): LogStore {
  // Lines stored per task, cached so the hot path does not count rows; seeded from the task row.
  const stored = new Map<string, { count: number; truncated: boolean }>();
  const connection = () => db.orm.em.getConnection();

  async function counter(taskId: string) {
    let entry = stored.get(taskId);
    if (!entry) {
      const rows: { log_lines: number; log_truncated: boolean }[] = await connection().execute(
        'select log_lines, log_truncated from tasks where id = ?',
        [taskId],
      );
      entry = { count: Number(rows[0]?.log_lines ?? 0), truncated: Boolean(rows[0]?.log_truncated) };
      stored.set(taskId, entry);
    }
    return entry;
  }

  async function insert(taskId: string, machineId: string | null, lines: readonly LogLine[]): Promise<number[]> {
    const payload = JSON.stringify(
      lines.map((line) => ({ s: line.source, t: line.text.length > maxLineChars ? `${line.text.slice(0, maxLineChars)}…[line cut]` : line.text, ts: line.ts })),
    );
    // One statement for the whole batch; the ordinality keeps ids in the agent's order.
    const rows: { id: string | number }[] = await connection().execute(
      `insert into task_logs (task_id, machine_id, source, text, logged_at)
       select ?, ?, x.line->>'s', x.line->>'t', to_timestamp((x.line->>'ts')::double precision / 1000.0)
       from jsonb_array_elements(?::jsonb) with ordinality as x(line, n)
       order by x.n
       returning id`,
      [taskId, machineId, payload],
    );
    return rows.map((row) => Number(row.id)).sort((a: number, b: number) => a - b);
  }

  return {
    async append(taskId, machineId, lines) {
      if (lines.length === 0) return [];
      const entry = await counter(taskId);
      const room = Math.max(0, maxLinesPerTask - entry.count);
      const kept = lines.slice(0, room);
      const ids: (number | null)[] = kept.length ? await insert(taskId, machineId, kept) : [];
      entry.count += kept.length;
      if (kept.length < lines.length && !entry.truncated) {
        entry.truncated = true;
        await insert(taskId, null, [
          {
            source: 'err',
            text: `[loadplane] log truncated: only the first ${maxLinesPerTask} lines of this run are stored; the rest was streamed live only`,
            ts: Date.now(),
          },
        ]);
      }
      await connection().execute('update tasks set log_lines = ?, log_truncated = ? where id = ?', [entry.count, entry.truncated, taskId]);
      while (ids.length < lines.length) ids.push(null);
      return ids;
    },

    async read(taskId, afterId, limit) {
      const rows: { id: string | number; machine_id: string | null; source: 'out' | 'err'; text: string; logged_at: Date | string }[] = await connection().execute(
        'select id, machine_id, source, text, logged_at from task_logs where task_id = ? and id > ? order by id limit ?',
        [taskId, afterId, limit],
      );
      return rows.map((row) => ({
        id: Number(row.id),
        machineId: row.machine_id,
        source: row.source,
        text: row.text,
        ts: new Date(row.logged_at).getTime(),
      }));
    },
  };
}
