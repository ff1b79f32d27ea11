/** The realm key: generated once, stored as a secret data file, reused, and never silently replaced. */
import { describe, expect, test } from 'bun:test';
import { createMemoryDataFiles, type DataFiles } from '../../core/ports/data-files.ts';
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
