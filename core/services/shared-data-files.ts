/**
 * Data files that every replica must agree on (the realm signing key, the generated client secret, SECRET_KEY, the
 * GET /metrics token) live in the database instead of DATA_DIR: the first writer wins and everyone reads its value. A
 * file an earlier single-node version left in DATA_DIR is imported once, so an upgrade keeps every session and token
 * valid. Each replica keeps a copy in its DATA_DIR too, where the operator finds the client secret (the contract says
 * it is generated there) and the metrics token.
 * Other files (the initial admin password, meant for the person at that machine) stay on disk only.
 */
import type { DataFiles } from '../ports/data-files.ts';
import type { Database } from '../ports/database.ts';
import { sqlOf } from './sql.ts';

export function sharedDataFiles(db: Database, disk: DataFiles, sharedNames: readonly string[]): DataFiles {
  const sql = sqlOf(db);
  const shared = new Set(sharedNames);

  const stored = async (name: string) =>
    (await sql.all<{ value: string }>('select value from service_secrets where name = ?', [name]))[0]?.value ?? null;
  const keepFirst = (name: string, value: string) =>
    sql.all('insert into service_secrets (name, value) values (?, ?) on conflict (name) do nothing', [name, value]);

  return {
    async read(name) {
      if (!shared.has(name)) return disk.read(name);
      const local = await disk.read(name);
      let value = await stored(name);
      if (value === null && local !== null) {
        await keepFirst(name, local);
        value = await stored(name);
      }
      if (value !== null && value !== local) await disk.write(name, value, { secret: true });
      return value;
    },
    async write(name, content, options) {
      if (!shared.has(name)) return disk.write(name, content, options);
      // Two replicas booting at once: the first one's value stays; callers read it back.
      await keepFirst(name, content);
    },
    async remove(name) {
      // Every replica depends on a shared secret: removing it is an operator's act on the database, never the code's.
      if (shared.has(name)) throw new Error(`data file ${name} is shared by every replica through the database and is never removed`);
      return disk.remove(name);
    },
  };
}
