/** The realm key: generated once, stored as a secret data file (shared by replicas through the database), reused, never silently replaced. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createMemoryDataFiles, type Database, type DataFiles, sqlOf } from 'loadplane/plugin';
import { coreEntities, coreMigrations, openDatabase, sharedDataFiles } from 'loadplane/plugin/testing';
import { loadOrCreateRealmKey, REALM_KEY_FILE } from './realm-key.ts';

function recordingFiles(): DataFiles & { writes: { name: string; secret: boolean }[] } {
  const inner = createMemoryDataFiles();
  const writes: { name: string; secret: boolean }[] = [];
  return {
    writes,
    read: (name) => inner.read(name),
    async write(name, content, options) {
      writes.push({ name, secret: options?.secret === true });
      await inner.write(name, content, options);
    },
    remove: (name) => inner.remove(name),
  };
}

describe('loadOrCreateRealmKey', () => {
  test('generates an RSA-2048 key once, as a secret file, and reuses it', async () => {
    const files = recordingFiles();
    const first = await loadOrCreateRealmKey(files);
    expect(first.created).toBe(true);
    expect(files.writes).toEqual([{ name: REALM_KEY_FILE, secret: true }]);
    expect(first.key.alg).toBe('RS256');
    expect(first.key.publicJwk).toEqual({
      kty: 'RSA',
      n: expect.any(String),
      e: 'AQAB',
      kid: first.key.kid,
      alg: 'RS256',
      use: 'sig',
    });
    // 2048-bit modulus: 256 bytes, 342 base64url characters.
    expect(first.key.publicJwk.n).toHaveLength(342);

    const second = await loadOrCreateRealmKey(files);
    expect(second.created).toBe(false);
    expect(second.key.kid).toBe(first.key.kid);
    expect(second.key.publicJwk).toEqual(first.key.publicJwk);
    expect(files.writes).toHaveLength(1);
  });

  test('refuses a damaged key file rather than replacing it', async () => {
    const files = createMemoryDataFiles({ [REALM_KEY_FILE]: '{"version":1}' });
    await expect(loadOrCreateRealmKey(files)).rejects.toThrow(/identity\/realm-key.json is not a valid realm key/);
    expect(await files.read(REALM_KEY_FILE)).toBe('{"version":1}');
  });
});

// The service hands the plugin its data files through the shared store (core/boot-service.ts): the same key for every replica.
describe('loadOrCreateRealmKey through the shared store', () => {
  let db: Database & { close(): Promise<void> };
  beforeAll(async () => {
    db = await openDatabase({ entities: coreEntities, migrations: coreMigrations });
  }, 60_000);
  afterAll(() => db.close());

  const clearStore = () => sqlOf(db).all('delete from service_secrets');
  const stored = async () => (await sqlOf(db).all<{ value: string }>('select value from service_secrets where name = ?', [REALM_KEY_FILE]))[0]?.value;
  const replica = (disk = createMemoryDataFiles()) => sharedDataFiles(db, disk, [REALM_KEY_FILE]);

  test('replicas starting at once with their own DATA_DIR agree on one key; exactly one of them created it', async () => {
    await clearStore();
    const results = await Promise.all([replica(), replica(), replica()].map((files) => loadOrCreateRealmKey(files)));
    expect(new Set(results.map((result) => result.key.kid)).size).toBe(1);
    expect(results.filter((result) => result.created)).toHaveLength(1);
    expect(JSON.parse((await stored())!).kid).toBe(results[0]!.key.kid);
    // A later replica reads it back; the public key is the same one, so tokens of one verify on all.
    const later = await loadOrCreateRealmKey(replica());
    expect(later.created).toBe(false);
    expect(later.key.publicJwk).toEqual(results[0]!.key.publicJwk);
  });

  test('the key file of an older single-node install is imported, not replaced', async () => {
    await clearStore();
    const legacy = createMemoryDataFiles();
    const original = await loadOrCreateRealmKey(legacy);
    const upgraded = await loadOrCreateRealmKey(replica(legacy));
    expect(upgraded.created).toBe(false);
    expect(upgraded.key.kid).toBe(original.key.kid);
    expect(await stored()).toBe((await legacy.read(REALM_KEY_FILE))!);
  });

  test('a damaged stored key fails loudly, names where it is kept, and stays as it is', async () => {
    await clearStore();
    await sqlOf(db).all('insert into service_secrets (name, value) values (?, ?)', [REALM_KEY_FILE, '{"version":1}']);
    const disk = createMemoryDataFiles();
    await expect(loadOrCreateRealmKey(replica(disk))).rejects.toThrow(/is not a valid realm key.*service_secrets/);
    expect(await stored()).toBe('{"version":1}');
  });
});
