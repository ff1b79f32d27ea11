/**
 * The AI tool-call budget holds when the calls that would cross it arrive at once: 20 concurrent POST
 * /usage/ai-tool-calls against a budget of 7 give exactly 7 answers 200 (counts 1 to 7, each once) and 13 answers 429,
 * and GET /usage says 7. On one replica in this run's database mode, and on two replicas sharing one PostgreSQL
 * database, where the requests really run side by side in separate processes' connection pools: only the single
 * upsert statement (core/services/usage/ai-tool-budget.ts) decides.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { limitsOf } from '../../core/domain/plans.ts';
import { postgresOrSkip, type PostgresServer } from '../helpers/postgres-server.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const budget = 7;
const calls = 20;
// The starter plan's budget is 7 here; the others keep theirs.
const usage = { aiToolCallBudget: (plan: string) => (plan === 'starter' ? budget : limitsOf(plan).aiToolCallsPerMonth) };

/** A new owner whose workspace is on the starter plan (budget 7), signed in on `ts`. */
async function starterOwner(ts: TestService, name: string) {
  const token = await ts.createUser(name);
  expect((await ts.request('/api/v1/workspace', { method: 'PATCH', token, json: { plan: 'starter' } })).status).toBe(200);
  return token;
}

/** Sends the calls at once, alternating over `replicas`; the answers' statuses and bodies. */
async function burst(replicas: TestService[], token: string) {
  const answers = await Promise.all(
    Array.from({ length: calls }, (_, i) => replicas[i % replicas.length]!.request('/api/v1/usage/ai-tool-calls', { method: 'POST', token })),
  );
  return Promise.all(answers.map(async (answer) => ({ status: answer.status, body: (await answer.json()) as { used?: number; remaining?: number; error?: string } })));
}

function expectExactBudget(answers: Awaited<ReturnType<typeof burst>>) {
  const granted = answers.filter((answer) => answer.status === 200);
  const refused = answers.filter((answer) => answer.status !== 200);
  expect(granted.length, `statuses ${answers.map((answer) => answer.status).join(', ')}`).toBe(budget);
  expect(refused.map((answer) => answer.status)).toEqual(Array(calls - budget).fill(429));
  expect(refused.map((answer) => answer.body.error)).toEqual(Array(calls - budget).fill('ai_budget_exhausted'));
  // Every count from 1 to 7 was handed out once: no two calls saw the same count.
  expect(granted.map((answer) => answer.body.used).sort((x, y) => x! - y!)).toEqual([1, 2, 3, 4, 5, 6, 7]);
  for (const answer of granted) expect(answer.body.remaining).toBe(budget - answer.body.used!);
}

const usedOn = async (ts: TestService, token: string) =>
  ((await (await ts.request('/api/v1/usage', { token })).json()) as { ai_tool_calls: { used: number; limit: number } }).ai_tool_calls;

describe('one replica', () => {
  let ts: TestService;
  beforeAll(async () => {
    ts = await startTestService({ boot: { usage } });
  }, 60_000);
  afterAll(() => ts?.stop());

  test('20 calls at once against a budget of 7: 7 granted, 13 refused, GET /usage says 7', async () => {
    for (let round = 0; round < 3; round++) {
      const token = await starterOwner(ts, `budget-one-${round}`);
      expectExactBudget(await burst([ts], token));
      expect(await usedOn(ts, token)).toEqual({ used: budget, limit: budget });
    }
  });
});

describe('two replicas on one PostgreSQL database', () => {
  let postgres: PostgresServer | null = null;
  const replicas: TestService[] = [];
  beforeAll(async () => {
    postgres = await postgresOrSkip();
    if (!postgres) return;
    // The first applies the migrations; the second starts on the migrated database, as a rolling deploy would.
    replicas.push(await startTestService({ database: postgres.url, boot: { usage } }));
    replicas.push(await startTestService({ database: postgres.url, boot: { usage } }));
  }, 120_000);
  afterAll(async () => {
    for (const replica of replicas) await replica.stop();
    await postgres?.stop();
  });

  test('20 calls at once over both replicas against a budget of 7: 7 granted, 13 refused, both replicas say 7', async () => {
    if (!postgres) return;
    const [a, b] = replicas as [TestService, TestService];
    for (let round = 0; round < 3; round++) {
      const token = await starterOwner(a, `budget-two-${round}`);
      expectExactBudget(await burst([a, b], token));
      expect(await usedOn(a, token)).toEqual({ used: budget, limit: budget });
      expect(await usedOn(b, token)).toEqual({ used: budget, limit: budget });
    }
  });
});
