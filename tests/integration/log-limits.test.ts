/** Stored logs are bounded per run with one truncation marker; live subscribers still see everything; a stalled subscriber is cut off. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { connect } from 'node:net';
import { isProgressLine, scriptLines } from '../helpers/script-log.ts';
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
const logTexts = (events: { data: Record<string, unknown> }[]) => events.filter((e) => e.data.type === 'log').map((e) => String(e.data.text));
const isMarker = (text: string) => text.startsWith('[loadplane] log truncated');
const utf8Bytes = (texts: string[]) => texts.reduce((sum, text) => sum + Buffer.byteLength(text), 0);

// The agent's progress lines (a slow sandbox start, the script's `sleep 0.5`, on a busy machine) are stored like any
// line and count toward the limits: the script's stored lines are the first of its output, as many as the agent's
// lines left room for.

test('past the limit, lines stream live but are not stored; one marker says so', async () => {
  const id = await startRun('#!/bin/sh\nsleep 0.5\ni=1\nwhile [ $i -le 300 ]; do echo "n $i"; i=$((i+1)); done\n');
  const printed = Array.from({ length: 300 }, (_, i) => `n ${i + 1}`);
  const live = logTexts((await readSse(await stream(id))).events);
  // Every line live, in order, with the one marker where storing stopped: after the run's 100th line.
  expect(scriptLines(live.filter((text) => !isMarker(text)))).toEqual(printed);
  expect(live.filter(isMarker)).toHaveLength(1);
  expect(live.findIndex(isMarker)).toBe(100);
  const texts = logTexts((await readSse(await stream(id, '?after=0'))).events);
  // Stored: the run's first 100 lines as they streamed, then the marker.
  expect(texts).toHaveLength(101);
  expect(texts.slice(0, 100)).toEqual(live.slice(0, 100));
  expect(texts[100]).toContain('log truncated: only the first 100 lines');
  // The script's lines among those 100 (the limit, the agent's lines counted): the start of its output.
  const kept = scriptLines(texts.slice(0, 100));
  expect(kept).toEqual(printed.slice(0, kept.length));
}, 30_000);

test('the stored log is bounded in bytes too: long lines stop storing at the byte limit, with one marker', async () => {
  // 50 lines of 1,000 characters: the first 20 fill the 20,000-byte budget exactly, less what progress lines took.
  const id = await startRun(`#!/bin/sh\nsleep 0.5\ni=1\nwhile [ $i -le 50 ]; do printf '%04d%s\\n' $i "${'y'.repeat(996)}"; i=$((i+1)); done\n`);
  const printed = Array.from({ length: 50 }, (_, i) => `${String(i + 1).padStart(4, '0')}${'y'.repeat(996)}`);
  const live = logTexts((await readSse(await stream(id))).events);
  expect(scriptLines(live.filter((text) => !isMarker(text)))).toEqual(printed);
  expect(live.filter(isMarker)).toHaveLength(1);
  const texts = logTexts((await readSse(await stream(id, '?after=0'))).events);
  const stored = texts.slice(0, -1);
  const marker = texts.at(-1)!;
  expect(marker).toContain(`log truncated: only the first ${stored.length} lines`);
  expect(stored.some(isMarker)).toBe(false);
  // What was stored is the run's log up to the marker, and it stopped at the first line that did not fit.
  expect(live.slice(0, stored.length + 1)).toEqual(texts);
  expect(utf8Bytes(stored)).toBeLessThanOrEqual(20_000);
  expect(utf8Bytes([...stored, live[stored.length + 1]!])).toBeGreaterThan(20_000);
  // The script's stored lines: the start of its output, whole, as many as fit beside the agent's lines (all 20 without).
  const kept = scriptLines(stored);
  expect(kept).toEqual(printed.slice(0, kept.length));
  expect(kept.length).toBe(Math.floor((20_000 - utf8Bytes(stored.filter(isProgressLine))) / 1_000));
}, 30_000);

test('a subscriber that stops reading is cut off instead of growing server memory', async () => {
  // ~40 MB of output: far more than the 4 MiB a stream may queue.
  const id = await startRun(`#!/bin/sh\nsleep 0.5\nyes "${'x'.repeat(200)}" | head -n 200000\n`);
  const url = new URL(ts.url);
  const socket = connect(Number(url.port), url.hostname);
  await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
  socket.write(`GET /api/v1/tasks/${id}/log-stream HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: Bearer ${token}\r\n\r\n`);
  socket.pause(); // never read: the kernel buffers fill, then the server's queue
  const streams = ts.service.runs.streams;
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
