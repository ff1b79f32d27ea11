/**
 * A new user's first requests arriving at once (a UI loading its pages, a script's parallel calls) give that user one
 * workspace, not one per request: on PostgreSQL the transactions that create it really run side by side, and the
 * user's profile row serializes them (core/services/caller-resolver.ts). Also: workspace:created fires once.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { Membership } from '../../core/domain/entities/membership.ts';
import { UserProfile } from '../../core/domain/entities/user-profile.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

let ts: TestService;
beforeAll(async () => {
  ts = await startTestService();
}, 60_000);
afterAll(() => ts.stop());

test('twelve concurrent first requests of each of five new users: one workspace each, the same one in every answer', async () => {
  const created: string[] = [];
  ts.service.kernel.hooks.hook('workspace:created', ({ ownerUserId }) => void created.push(ownerUserId));
  for (let round = 0; round < 5; round++) {
    const jwt = await ts.createUser(`first-race-${round}`);
    const answers = await Promise.all(Array.from({ length: 12 }, () => ts.request('/api/v1/workspace', { token: jwt })));
    const ids = await Promise.all(answers.map(async (answer) => (answer.status === 200 ? ((await answer.json()) as { id: string }).id : `status ${answer.status}`)));
    expect(new Set(ids).size, `answers: ${ids.join(', ')}`).toBe(1);
    const em = ts.service.database.fork();
    const profile = await em.findOneOrFail(UserProfile, { username: `first-race-${round}` });
    const memberships = await em.find(Membership, { userId: profile.id });
    expect(memberships.map((m) => m.workspaceId)).toEqual([ids[0]!]);
    expect(created.filter((owner) => owner === profile.id)).toHaveLength(1);
  }
});
