/**
 * Sign-in's look-up by name or e-mail finds that user and no other, even when the garbage collector runs while the
 * query is built. (MikroORM's `{ [raw('lower(username)')]: name }` did not: on Bun a symbol that is only an object's
 * key does not keep its WeakMap entry alive, the fragment was lost, and the query answered the realm's first user.)
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import type { EntityManager } from '@mikro-orm/core';
import type { Database } from 'loadplane/plugin';
import { openDatabase } from 'loadplane/plugin/testing';
import identityEmbedded from './index.ts';
import { createRealmUser, loadUserEntityByEmail, loadUserEntityByUsername } from './realm-users.ts';
import { HARNESS_TIMEOUT_MS } from './test-kernel.ts';

let db: Database & { close(): Promise<void> };

beforeAll(async () => {
  db = await openDatabase({ entities: [...identityEmbedded.entities!], migrations: [...identityEmbedded.migrations!] });
  // The realm's first user: what a query that lost its condition would answer.
  await createRealmUser(db, 'r', { username: 'admin', email: 'admin@example.test', password: 'x' }, { passwordIterations: 1 });
  await createRealmUser(db, 'r', { username: 'Bob', email: 'Bob@Example.test', password: 'x' }, { passwordIterations: 1 });
}, HARNESS_TIMEOUT_MS);

afterAll(() => db?.close());

/** A unit of work whose queries run only after a full collection, as under memory pressure. */
function collectingFork(): EntityManager {
  const em = db.fork();
  const findOne = em.findOne.bind(em);
  em.findOne = ((...args: Parameters<typeof findOne>) => {
    Bun.gc(true);
    return findOne(...args);
  }) as typeof em.findOne;
  return em;
}

test('by username and by e-mail: case-insensitive, exact, never another user', async () => {
  expect((await loadUserEntityByUsername(collectingFork(), 'r', ' BOB '))?.username).toBe('bob');
  expect((await loadUserEntityByEmail(collectingFork(), 'r', 'bob@EXAMPLE.test'))?.username).toBe('bob');
  expect(await loadUserEntityByUsername(collectingFork(), 'r', 'nobody')).toBeNull();
  expect(await loadUserEntityByEmail(collectingFork(), 'r', 'nobody@example.test')).toBeNull();
  expect(await loadUserEntityByUsername(collectingFork(), 'other-realm', 'admin')).toBeNull();
});
