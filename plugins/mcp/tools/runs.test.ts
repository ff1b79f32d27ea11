import { expect, test } from 'bun:test';
import { fakeService, granted } from '../test-rest.ts';
import { runTool } from '../tool-registry.ts';
import { runsByMachine } from './runs.ts';

const run = (index: number, machine: string) => ({
  id: `run-${index}`,
  public_id: `p${index}`,
  test_id: 't',
  config_id: null,
  status: 'completed',
  p50: 1,
  p95: 2,
  p99: 3,
  error_rate: 0,
  requests_per_sec: 10,
  total_requests: 10,
  machine_ids: [machine],
  transport: 'sse',
  error: null,
  pending_reason: null,
  log_url: 'http://lp.test/x',
  created_at: '2026-11-26T00:00:00.000Z',
  started_at: null,
  finished_at: null,
});

test('runs_by_machine scans REST pages and resumes exactly where it stopped, mid-page too', async () => {
  // 450 runs, every third on machine m: REST pages of 200.
  const all = Array.from({ length: 450 }, (_, index) => run(index, index % 3 === 0 ? 'm' : 'other'));
  const { context } = fakeService({
    'POST /usage/ai-tool-calls': granted,
    'GET /tasks': (_request, url) => {
      const start = Number(url.searchParams.get('cursor') ?? 0);
      const limit = Number(url.searchParams.get('limit'));
      const next = start + limit < all.length ? String(start + limit) : null;
      return Response.json(all.slice(start, start + limit), { headers: next ? { 'x-next-cursor': next } : {} });
    },
  });
  const seen: string[] = [];
  let cursor: string | undefined;
  let pages = 0;
  do {
    const page = (await runTool(runsByMachine, { machine_id: 'm', limit: 40, ...(cursor ? { cursor } : {}) }, context)).structuredContent as {
      items: { id: string }[];
      next_cursor: string | null;
    };
    seen.push(...page.items.map((each) => each.id));
    cursor = page.next_cursor ?? undefined;
    pages++;
  } while (cursor);
  expect(seen).toEqual(all.filter((_, index) => index % 3 === 0).map((each) => each.id));
  expect(pages).toBe(4);
  const refused = await runTool(runsByMachine, { machine_id: 'm', cursor: 'garbage' }, context);
  expect(JSON.parse(refused.content[0]!.text)).toMatchObject({ error: 'bad_request' });
});
