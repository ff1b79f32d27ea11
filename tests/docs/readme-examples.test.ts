/**
 * The README as a newcomer uses it: the service started as `npm start` starts it, on a fresh DATA_DIR that is `data/`
 * of the examples' checkout (docs-service.ts), then every code block in order, in one bash session. Only the address
 * changes (the test's port for 8080). The quick start's first run must end completed with its figures, so the README's
 * first example cannot rot; every later block is run or checked by its kind (example-kinds.ts).
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { checkExample, type DocSession, openDocSession } from './check-example.ts';
import { type DocsWorld, startDocsWorld } from './docs-service.ts';
import { resolveKind } from './example-kinds.ts';
import { readExamples } from './markdown-examples.ts';
import { sseEvents } from './shell-session.ts';

const readme = readExamples('README.md');
const quickStart = readme.examples.filter((example) => example.section === 'Quick start');
const later = readme.examples.filter((example) => example.section !== 'Quick start');

let world: DocsWorld | null = null;
let session: DocSession;

beforeAll(async () => {
  world = await startDocsWorld();
  session = openDocSession(world);
}, 90_000);

afterAll(async () => {
  await world?.stop();
});

describe('README.md', () => {
  test('every code block has a kind the tests know', () => {
    expect(readme.problems).toEqual([]);
    expect(readme.examples.map(resolveKind).filter((resolved) => 'error' in resolved)).toEqual([]);
  });

  test('the quick start: npm start, sign in, a psk_ token, an http test against /healthz, 5 users for 10 s, followed to done', async () => {
    expect(quickStart[0]?.marker?.kind).toBe('starts-service');
    const outputs = [];
    for (const example of quickStart) outputs.push(await checkExample(session, example));
    // The token every later example uses is an API token, not the five-minute access token.
    const signIn = quickStart.findIndex((example) => example.code.includes('/api-tokens'));
    expect(signIn).toBeGreaterThan(0);
    expect(quickStart[signIn]!.code).toContain('TOKEN=');

    const stream = outputs.find((output) => output?.stdout.includes('data: '));
    expect(stream, 'no quick-start block followed a run').toBeDefined();
    const events = sseEvents(stream!.stdout);
    const done = events.find((event) => event.type === 'done');
    expect(done, stream!.stdout.slice(-2000)).toBeDefined();
    expect(done!.task).toMatchObject({ status: 'completed', error_rate: 0, pending_reason: null });
    expect(done!.task!.total_requests as number).toBeGreaterThan(10);
    expect(done!.task!.requests_per_sec as number).toBeGreaterThan(0);
    expect(done!.task!.p95 as number).toBeGreaterThan(0);
    // The http tool's progress and its per-step summary reached the live log before the end.
    expect(events.some((event) => event.type === 'log' && event.text?.includes('health'))).toBe(true);
  }, 180_000);

  test('every later example, in order, after the quick start', async () => {
    for (const example of later) await checkExample(session, example);
  }, 240_000);
});
