/** The shared store on PGlite and PostgreSQL: first writer wins, a legacy DATA_DIR file is imported once, other files stay on disk. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { openDatabase } from '../../adapters/db/open-database.ts';
import { postgresOrSkip } from '../../tests/helpers/postgres-server.ts';
import { coreEntities } from '../domain/entities/index.ts';
import { coreMigrations } from '../domain/migrations/index.ts';
import { createMemoryDataFiles, type DataFiles } from '../ports/data-files.ts';
import type { Database } from '../ports/database.ts';
import { generatedSecret } from './generated-secret.ts';
import { sharedDataFiles } from './shared-data-files.ts';
import { sqlOf } from './sql.ts';

const SHARED = ['auth-client-secret', 'secret-key'];

function suite(kind: 'pglite' | 'postgresql') {
  let db: (Database & { close(): Promise<void> }) | null = null;
  let stopServer = async () => {};

  beforeAll(async () => {
    let databaseUrl: string | undefined;
    if (kind === 'postgresql') {
      const server = await postgresOrSkip();
      if (!server) return;
      stopServer = () => server.stop();
      databaseUrl = server.url;
    }
    db = await openDatabase({ entities: coreEntities, migrations: coreMigrations, databaseUrl });
  }, 60_000);

  afterAll(async () => {
    await db?.close();
    await stopServer();
  });

  // Each test uses its own secret name, so the tests of one database do not see each other's rows.
  const rows = (name: string) => sqlOf(db!).all<{ value: string }>('select value from service_secrets where name = ?', [name]);
  const replica = (disk: DataFiles = createMemoryDataFiles(), names = SHARED) => ({ disk, files: sharedDataFiles(db!, disk, names) });
  const skipped = () => db === null;

  test('a generated secret is stored once; another DATA_DIR gets the same value and a copy', async () => {
    if (skipped()) return;
    const [a, b] = [replica(undefined, ['s1']), replica(undefined, ['s1'])];
    const secret = await generatedSecret(a.files, 's1');
    expect(secret.length).toBeGreaterThanOrEqual(43);
    expect(await generatedSecret(b.files, 's1')).toBe(secret);
    expect((await b.disk.read('s1'))?.trim()).toBe(secret);
    expect(await rows('s1')).toEqual([{ value: `${secret}\n` }]);
  });

  test('a legacy DATA_DIR file is imported once; after that the database wins over any file', async () => {
    if (skipped()) return;
    const a = replica(createMemoryDataFiles({ s2: 'legacy-a\n' }), ['s2']);
    expect(await generatedSecret(a.files, 's2')).toBe('legacy-a');
    // Another replica's own older file does not replace it: that replica is brought in line.
    const b = replica(createMemoryDataFiles({ s2: 'legacy-b\n' }), ['s2']);
    expect(await generatedSecret(b.files, 's2')).toBe('legacy-a');
    expect(await b.disk.read('s2')).toBe('legacy-a\n');
    // A copy edited or lost in DATA_DIR is restored from the database.
    await a.disk.write('s2', 'edited\n');
    expect(await generatedSecret(a.files, 's2')).toBe('legacy-a');
    expect(await a.disk.read('s2')).toBe('legacy-a\n');
    expect(await rows('s2')).toEqual([{ value: 'legacy-a\n' }]);
  });

  test('replicas generating at the same moment all keep the first writer\'s value', async () => {
    if (skipped()) return;
    const replicas = Array.from({ length: 8 }, () => replica(undefined, ['s3']));
    const secrets = await Promise.all(replicas.map((r) => generatedSecret(r.files, 's3')));
    expect(new Set(secrets).size).toBe(1);
    expect(await rows('s3')).toEqual([{ value: `${secrets[0]}\n` }]);
    for (const r of replicas) expect((await r.disk.read('s3'))?.trim()).toBe(secrets[0]);
  });

  test('a configured secret wins and is not stored', async () => {
    if (skipped()) return;
    const a = replica(undefined, ['s4']);
    expect(await generatedSecret(a.files, 's4', 'configured-secret-of-at-least-32-characters')).toBe(
      'configured-secret-of-at-least-32-characters',
    );
    expect(await rows('s4')).toEqual([]);
    expect(await a.disk.read('s4')).toBeNull();
  });

  test('files that are not shared (the initial admin password) stay in DATA_DIR only', async () => {
    if (skipped()) return;
    const a = replica(undefined, ['s5']);
    await a.files.write('initial-admin-password', 'for-the-person-at-this-machine\n', { secret: true });
    expect(await a.disk.read('initial-admin-password')).toBe('for-the-person-at-this-machine\n');
    expect(await a.files.read('initial-admin-password')).toBe('for-the-person-at-this-machine\n');
    expect(await rows('initial-admin-password')).toEqual([]);
    expect(await replica(undefined, ['s5']).files.read('initial-admin-password')).toBeNull();
  });
}

describe('sharedDataFiles on PGlite', () => suite('pglite'));
describe('sharedDataFiles on PostgreSQL', () => suite('postgresql'));
