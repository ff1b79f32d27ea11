/** The realm's RS256 signing key: generated once as the data file `identity/realm-key.json` (shared by replicas through the database), reused after restarts. */
import { calculateJwkThumbprint, exportJWK, generateKeyPair, importJWK, type JWK } from 'jose';
import type { DataFiles } from 'loadplane/plugin';

export const REALM_KEY_FILE = 'identity/realm-key.json';
export const REALM_KEY_ALGORITHM = 'RS256';

export interface RealmKey {
  /** The JWK thumbprint of the public key: stable for the key, and named in every token's header. */
  kid: string;
  alg: typeof REALM_KEY_ALGORITHM;
  privateKey: CryptoKey;
  publicKey: CryptoKey;
  /** The public half only, as published in the JWKS. */
  publicJwk: JWK;
}

interface StoredRealmKey {
  version: 1;
  kid: string;
  alg: typeof REALM_KEY_ALGORITHM;
  privateJwk: JWK;
  createdAt: string;
}

const publicMembers = (jwk: JWK): JWK => ({ kty: jwk.kty, n: jwk.n, e: jwk.e });

async function fromStored(stored: StoredRealmKey): Promise<RealmKey> {
  const publicJwk: JWK = { ...publicMembers(stored.privateJwk), kid: stored.kid, alg: stored.alg, use: 'sig' };
  const [privateKey, publicKey] = await Promise.all([
    importJWK(stored.privateJwk, stored.alg) as Promise<CryptoKey>,
    importJWK(publicJwk, stored.alg) as Promise<CryptoKey>,
  ]);
  return { kid: stored.kid, alg: stored.alg, privateKey, publicKey, publicJwk };
}

function parseStored(text: string): StoredRealmKey {
  const value = JSON.parse(text) as Partial<StoredRealmKey>;
  const jwk = value.privateJwk;
  if (value.version !== 1 || value.alg !== REALM_KEY_ALGORITHM || typeof value.kid !== 'string' || !jwk) {
    throw new Error('unexpected content');
  }
  if (jwk.kty !== 'RSA' || typeof jwk.d !== 'string' || typeof jwk.n !== 'string') {
    throw new Error('not an RSA private key');
  }
  return value as StoredRealmKey;
}

/** Reads the realm key, or generates and stores a new RSA-2048 one when the file does not exist yet. */
export async function loadOrCreateRealmKey(files: DataFiles): Promise<{ key: RealmKey; created: boolean }> {
  const existing = await files.read(REALM_KEY_FILE);
  if (existing !== null) {
    let stored: StoredRealmKey;
    try {
      stored = parseStored(existing);
    } catch (error) {
      // Never replace a damaged key silently: every token and session issued with it would stop working.
      throw new Error(
        `data file ${REALM_KEY_FILE} is not a valid realm key (${(error as Error).message}); ` +
          'restore it from a backup, or delete it to generate a new key (signs everyone out). ' +
          // The service keeps this file in the database for all replicas and copies it to each DATA_DIR: deleting only
          // the copy would bring the damaged key back at the next start.
          `The service keeps it in table service_secrets (name '${REALM_KEY_FILE}') with a copy in each DATA_DIR: ` +
          'restore or delete the row and the copies',
        { cause: error },
      );
    }
    return { key: await fromStored(stored), created: false };
  }
  const { privateKey } = await generateKeyPair(REALM_KEY_ALGORITHM, { modulusLength: 2048, extractable: true });
  const privateJwk = await exportJWK(privateKey);
  const stored: StoredRealmKey = {
    version: 1,
    kid: await calculateJwkThumbprint(publicMembers(privateJwk), 'sha256'),
    alg: REALM_KEY_ALGORITHM,
    privateJwk,
    createdAt: new Date().toISOString(),
  };
  await files.write(REALM_KEY_FILE, `${JSON.stringify(stored, null, 2)}\n`, { secret: true });
  // Read back: with replicas sharing the key through the database, another one's key may have been kept first.
  const kept = parseStored((await files.read(REALM_KEY_FILE)) ?? '');
  return { key: await fromStored(kept), created: kept.kid === stored.kid };
}
