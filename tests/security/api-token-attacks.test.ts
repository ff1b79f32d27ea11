/**
 * Attacks on personal API tokens over a real socket: a flood of random `psk_` tokens with valid checksums (each one a
 * database lookup) is cut off per client address with a 429 before any lookup; a revoke racing a rotate of the same
 * token, many times over, never leaves a usable secret behind; a lookup that raced a revocation is not cached.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { generateApiToken, hashApiToken } from '../../core/domain/api-token-format.ts';
import { ApiToken } from '../../core/domain/entities/api-token.ts';
import { AuditEntry } from '../../core/domain/entities/audit-entry.ts';
import type { Database } from '../../core/ports/database.ts';
import { freePort } from '../helpers/service-process.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
let base: string;

const get = (path: string, token: string) => fetch(`${base}${path}`, { headers: { authorization: `Bearer ${token}` } });

async function createToken(jwt: string, name: string) {
  const response = await ts.request('/api/v1/api-tokens', { method: 'POST', token: jwt, json: { name } });
  expect(response.status).toBe(201);
  return (await response.json()) as { id: string; token: string };
}

/** Counts the API-token rows the service reads while `work` runs (every fork of the database, every findOne). */
async function countTokenLookups(db: Database, work: () => Promise<void>): Promise<number> {
  let lookups = 0;
  const fork = db.fork.bind(db);
  db.fork = ((...args: Parameters<Database['fork']>) => {
    const em = fork(...args);
    const findOne = em.findOne.bind(em);
    em.findOne = ((entity: unknown, ...rest: unknown[]) => {
      if (entity === ApiToken) lookups++;
      return (findOne as (...a: unknown[]) => unknown)(entity, ...rest);
    }) as typeof em.findOne;
    return em;
  }) as Database['fork'];
  try {
    await work();
  } finally {
    db.fork = fork;
  }
  return lookups;
}

/**
 * Holds the first `findOne(ApiToken, ...)` whose filter matches, between its read and its answer, until released:
 * a way to put one request's read before another's write on purpose.
 */
function holdTokenRead(db: Database, matches: (where: Record<string, unknown>) => boolean) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  let read!: () => void;
  const hasRead = new Promise<void>((resolve) => (read = resolve));
  let held = false;
  type Em = ReturnType<Database['fork']>;
  // The entity manager of a transaction is a fork of its own: instrument it as well.
  const instrument = (em: Em): Em => {
    const findOne = em.findOne.bind(em);
    em.findOne = (async (entity: unknown, where: unknown, ...rest: unknown[]) => {
      const row = await (findOne as (...a: unknown[]) => Promise<unknown>)(entity, where, ...rest);
      if (entity === ApiToken && !held && matches(where as Record<string, unknown>)) {
        held = true;
        read();
        await gate;
      }
      return row;
    }) as Em['findOne'];
    const transactional = em.transactional.bind(em);
    em.transactional = ((work: (tx: Em) => unknown, ...rest: unknown[]) =>
      (transactional as (...a: unknown[]) => unknown)((tx: Em) => work(instrument(tx)), ...rest)) as Em['transactional'];
    return em;
  };
  const fork = db.fork.bind(db);
  db.fork = ((...args: Parameters<Database['fork']>) => instrument(fork(...args))) as Database['fork'];
  return {
    hasRead,
    /** Stops intercepting new forks (the held one stays held until release). */
    restore: () => (db.fork = fork),
    release: () => release(),
  };
}

beforeAll(async () => {
  ts = await startTestService({ port: await freePort() });
  base = await ts.listen();
}, 60_000);
afterAll(() => ts.stop());

describe('random tokens with a valid checksum', () => {
  test('typos (a wrong checksum) cost no lookup and do not count towards the limit', async () => {
    const valid = generateApiToken();
    const typo = `${valid.slice(0, -1)}${valid.endsWith('A') ? 'B' : 'A'}`;
    const lookups = await countTokenLookups(ts.service.database, async () => {
      for (let i = 0; i < 40; i++) {
        const response = await get('/api/v1/machines', typo);
        expect(response.status).toBe(401);
        expect(((await response.json()) as { message: string }).message).toContain('checksum mismatch');
      }
    });
    expect(lookups).toBe(0);
  });

  test('past 20 failed lookups in a minute an address gets 429 before any lookup; a cached valid token still works', async () => {
    const jwt = await ts.createUser('flood-owner');
    const warm = await createToken(jwt, 'warm');
    const cold = await createToken(jwt, 'cold');
    expect((await get('/api/v1/machines', warm.token)).status).toBe(200);

    // The 40 typos before did not count: all 20 guesses are still looked up.
    const guesses = await countTokenLookups(ts.service.database, async () => {
      for (let i = 0; i < 20; i++) {
        const response = await get('/api/v1/machines', generateApiToken());
        expect(response.status, `guess ${i + 1}`).toBe(401);
      }
    });
    expect(guesses).toBe(20);

    let refused: Response | null = null;
    const afterLimit = await countTokenLookups(ts.service.database, async () => {
      refused = await get('/api/v1/machines', generateApiToken());
      // A valid token nobody used yet is refused the same way: proof that no lookup decided it.
      expect((await get('/api/v1/tests', cold.token)).status).toBe(429);
      // So is the agent socket's upgrade, which authenticates the same way.
      expect((await fetch(`${base}/api/v1/agent`, { headers: { authorization: `Bearer ${generateApiToken()}`, upgrade: 'websocket', connection: 'upgrade', 'sec-websocket-key': 'dGhlIHNhbXBsZSBub25jZQ==', 'sec-websocket-version': '13' } })).status).toBe(429);
    });
    expect(afterLimit).toBe(0);
    const response = refused as unknown as Response;
    expect(response.status).toBe(429);
    const retryAfter = Number(response.headers.get('retry-after'));
    expect(retryAfter).toBeGreaterThan(0);
    expect(retryAfter).toBeLessThanOrEqual(60);
    expect(await response.json()).toEqual({
      error: 'too_many_failed_lookups',
      message: expect.stringMatching(/^too many unknown or revoked API tokens from this address; try again in \d+ s$/),
    });

    // The token already known to be valid costs no lookup, so it keeps working from the same address.
    expect((await get('/api/v1/machines', warm.token)).status).toBe(200);
    // JWTs are not token lookups: the owner still works from this address.
    expect((await get('/api/v1/machines', jwt)).status).toBe(200);
    // The limit is per address: a request without a socket address (in-process) is looked up as usual.
    expect((await ts.request('/api/v1/tests', { token: cold.token })).status).toBe(200);
  });

});

describe('revoke racing rotate', () => {
  // Tokens are used in-process (no client address): this loopback address is refused for a minute after the flood above,
  // and the revoked secrets checked here are failed lookups themselves. Revoke and rotate go over the socket.
  const use = (token: string) => ts.request('/api/v1/machines', { token });

  test('across 60 concurrent revoke/rotate pairs no secret survives, even one used between the two', async () => {
    const jwt = await ts.createUser('race-owner');
    const outcomes = new Map<string, number>();
    for (let round = 0; round < 12; round++) {
      // The enterprise plan allows 5 live tokens per user: 5 pairs at once per round.
      const tokens = await Promise.all(Array.from({ length: 5 }, (_, i) => createToken(jwt, `race-${round}-${i}`)));
      const results = await Promise.all(
        tokens.map(async ({ id, token }, i) => {
          // Either request may leave first (alternating, with a little jitter), so both orders happen.
          const revokeFirst = (round + i) % 2 === 0;
          const jitter = () => Bun.sleep(Math.random() * 3);
          const revoke = (revokeFirst ? Promise.resolve() : jitter()).then(() =>
            fetch(`${base}/api/v1/api-tokens/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${jwt}` } }),
          );
          const rotate = (revokeFirst ? jitter() : Promise.resolve()).then(() =>
            fetch(`${base}/api/v1/api-tokens/${id}/rotate`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` } }),
          ).then(async (response) => {
            const fresh = response.status === 200 ? ((await response.json()) as { token: string }).token : null;
            // Use the new secret at once, while the revoke may still be in flight: it must not get cached as valid.
            if (fresh) await use(fresh);
            return { status: response.status, fresh };
          });
          // The old secret is in use meanwhile too.
          const used = use(token);
          const [revoked, rotated] = await Promise.all([revoke, rotate, used]);
          return { id, token, revoked: revoked.status, revokeBody: revoked.status === 204 ? '' : await revoked.text(), ...rotated };
        }),
      );
      for (const result of results) {
        if (result.revoked !== 204) {
          // Seen once in CI (PostgreSQL, a 404): the owner's five concurrent first requests had given it two workspaces
          // (tests/integration/first-workspace-race.test.ts). Should it recur otherwise, say what the service did.
          const audit = await ts.service.database.fork().find(AuditEntry, { targetId: result.id }, { orderBy: { createdAt: 'asc' } });
          const trail = audit.map((entry) => entry.action).join(', ');
          throw new Error(`the revoke of ${result.id} got ${result.revoked} ${result.revokeBody} (rotate ${result.status}); audit: ${trail}`);
        }
        expect([200, 404]).toContain(result.status);
        outcomes.set(`rotate ${result.status}`, (outcomes.get(`rotate ${result.status}`) ?? 0) + 1);
        for (const secret of [result.token, result.fresh]) {
          if (!secret) continue;
          expect((await use(secret)).status, `${result.id}: a secret still works`).toBe(401);
        }
        const row = await ts.service.database.fork().findOneOrFail(ApiToken, { id: result.id });
        expect(row.revokedAt).not.toBeNull();
        if (result.fresh) expect(row.secretHash).toBe(await hashApiToken(result.fresh));
      }
    }
    const listed = (await (await ts.request('/api/v1/api-tokens', { token: jwt })).json()) as unknown[];
    expect(listed).toEqual([]);
    console.info('revoke/rotate outcomes over 60 pairs:', Object.fromEntries(outcomes));
  }, 120_000);

  test('a revoke that read the token before a rotation wrote it still revokes the new secret (row lock)', async () => {
    const jwt = await ts.createUser('lock-owner');
    const { id, token } = await createToken(jwt, 'locked');
    // The revoke reads the token row, then waits; meanwhile a rotate tries to replace the secret.
    const hold = holdTokenRead(ts.service.database, (where) => where.id === id);
    const revoke = fetch(`${base}/api/v1/api-tokens/${id}`, { method: 'DELETE', headers: { authorization: `Bearer ${jwt}` } });
    await hold.hasRead;
    hold.restore();
    const rotate = fetch(`${base}/api/v1/api-tokens/${id}/rotate`, { method: 'POST', headers: { authorization: `Bearer ${jwt}` } });
    // Without a row lock the rotate completes now and its secret gets used (and cached) before the revoke writes.
    const early = await Promise.race([rotate, Bun.sleep(300).then(() => null)]);
    let fresh: string | null = null;
    if (early?.status === 200) {
      fresh = ((await early.json()) as { token: string }).token;
      expect((await use(fresh)).status).toBe(200);
    }
    hold.release();
    expect((await revoke).status).toBe(204);
    const rotated = await rotate;
    if (!early && rotated.status === 200) fresh = ((await rotated.json()) as { token: string }).token;
    for (const [label, secret] of [['old', token], ['rotated', fresh]] as const) {
      if (secret) expect((await use(secret)).status, `the ${label} secret`).toBe(401);
    }
    // The rotate waited for the revoke and then found no live token.
    expect(rotated.status).toBe(404);
  });

  test('a lookup that read the row just before a revocation is not cached past it', async () => {
    const jwt = await ts.createUser('cache-race-owner');
    const { id, token } = await createToken(jwt, 'racing');
    const secretHash = await hashApiToken(token);
    // Hold the authenticator's lookup of this token between its read and its answer.
    const hold = holdTokenRead(ts.service.database, (where) => where.secretHash === secretHash);
    const inFlight = use(token);
    await hold.hasRead;
    hold.restore();
    expect((await ts.request(`/api/v1/api-tokens/${id}`, { method: 'DELETE', token: jwt })).status).toBe(204);
    hold.release();
    // That request began before the revocation and may pass; what it read must not be remembered.
    expect((await inFlight).status).toBe(200);
    expect((await use(token)).status).toBe(401);
  });
});
