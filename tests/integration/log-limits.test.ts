/** Stored logs are bounded per run with one truncation marker; live subscribers still see everything; a stalled subscriber is cut off. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { readSse } from '../helpers/stream-clients.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import type { TestService } from '../helpers/test-service.ts';

let ts: TestService;
let token: string;
let fixture: ServiceWithAgent;

beforeAll(async () => {
  fixture = await startServiceWithAgent('limits', { env: { MAX_LOG_LINES_PER_RUN: '100', MAX_LOG_BYTES_PER_RUN: '20000' } });
  ({ ts, token } = fixture);
}, 60_000);

afterAll(async () => {
  await fixture?.stop();
});

async function startRun(script: string) {
  const created = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'limits', tool: 'custom', script } });
  const { id: testId } = (await created.json()) as { id: string };
  return ((await (await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId } })).json()) as { id: string }).id;
}

const stream = (id: string, query = '') => fetch(`${ts.url}/api/v1/tasks/${id}/log-stream${query}`, { headers: { authorization: `Bearer ${token}` } });

test('past the limit, lines stream live but are not stored; one marker says so', async () => {
  const id = await startRun('#!/bin/sh\nsleep 0.5\ni=1\nwhile [ $i -le 300 ]; do echo "n $i"; i=$((i+1)); done\n');
  const live = await readSse(await stream(id));
  const liveTexts = live.events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text));
  // Every line live, in order, with the one marker where storing stopped.
  expect(liveTexts.filter((text) => !text.includes('log truncated'))).toEqual(Array.from({ length: 300 }, (_, i) => `n ${i + 1}`));
  expect(liveTexts).toHaveLength(301);
  expect(liveTexts[100]).toContain('log truncated');
  const stored = await readSse(await stream(id, '?after=0'));
  const texts = stored.events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text));
  expect(texts.slice(0, 100)).toEqual(Array.from({ length: 100 }, (_, i) => `n ${i + 1}`));
  expect(texts).toHaveLength(101);
  expect(texts[100]).toContain('log truncated');
}, 30_000);

test('the stored log is bounded in bytes too: long lines stop storing at the byte limit, with one marker', async () => {
  // 50 lines of 1,000 characters: the first 20 fill the 20,000-byte budget exactly.
  const id = await startRun(`#!/bin/sh\nsleep 0.5\ni=1\nwhile [ $i -le 50 ]; do printf '%04d%s\\n' $i "${'y'.repeat(996)}"; i=$((i+1)); done\n`);
  const live = await readSse(await stream(id));
  const liveTexts = live.events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text));
  expect(liveTexts.filter((text) => !text.includes('log truncated'))).toHaveLength(50);
  const stored = await readSse(await stream(id, '?after=0'));
  const texts = stored.events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text));
  expect(texts).toHaveLength(21);
  expect(texts.slice(0, 20).map((text) => text.slice(0, 4))).toEqual(Array.from({ length: 20 }, (_, i) => String(i + 1).padStart(4, '0')));
  expect(texts.slice(0, 20).every((text) => text.length === 1_000)).toBe(true);
  expect(texts[20]).toContain('log truncated');
  expect(texts[20]).toContain('20 lines');
}, 30_000);

test('a subscriber that stops reading is cut off instead of growing server memory', async () => {
  // ~40 MB of output: far more than the 4 MiB a stream may queue.
  const id = await startRun(`#!/bin/sh\nsleep 0.5\nyes "${'x'.repeat(200)}" | head -n 200000\n`);
  const url = new URL(ts.url);
  const socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(`GET /api/v1/tasks/${id}/log-stream HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  socket.pause(); // never read: the kernel buffers fill, then the server's queue
  const streams = ts.service.runs.context.streams;
  let sawSubscriber = false;
  const deadline = Date.now() + 20_000;
  for (;;) {
    const count = streams.subscribers(id);
    if (count > 0) sawSubscriber = true;
    if (sawSubscriber && count === 0) break;
    if (Date.now() > deadline) throw new Error(`subscriber not cut off (seen: ${sawSubscriber}, now: ${count})`);
    await Bun.sleep(50);
  }
  socket.destroy();
  // The run itself was not disturbed.
  for (let i = 0; i < 300; i++) {
    const task = (await (await ts.request(`/api/v1/tasks/${id}`, { token })).json()) as { status: string };
    if (task.status === 'completed') return;
    await Bun.sleep(100);
  }
  throw new Error('run did not complete');
}, 60_000);
