/** Tests of the log follower: resume after the last id on a drop, no duplicates, cut-off, waiting notes, errors. */
import { describe, expect, test } from 'bun:test';
import { followTaskLog, type LogLine, type StreamStatus } from './log-stream';

const log = (id: number, text: string, source = 'out') => `id: ${id}\ndata: ${JSON.stringify({ type: 'log', source, text, id })}\n\n`;
const done = (status: string) => `id: end\ndata: ${JSON.stringify({ type: 'done', task: { status, error: null } })}\n\n`;

function streamOf(chunks: string[]): Response {
  const encoder = new TextEncoder();
  return new Response(
    new ReadableStream<Uint8Array>({
      start(controller) {
        for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
        controller.close();
      },
    }),
    { headers: { 'content-type': 'text/event-stream' } },
  );
}

function harness(answers: (() => Response)[], live = true) {
  const requests: { path: string; lastEventId: string | null }[] = [];
  const lines: LogLine[] = [];
  const statuses: StreamStatus[] = [];
  const sleeps: number[] = [];
  const controller = new AbortController();
  const run = (extra: Partial<Parameters<typeof followTaskLog>[0]> = {}) =>
    followTaskLog({
      taskId: 'task 1',
      fetch: async (path, init) => {
        requests.push({ path, lastEventId: new Headers(init.headers).get('Last-Event-ID') });
        const next = answers.shift();
        if (!next) throw new Error('no more answers');
        return next();
      },
      isLive: () => live,
      onLines: (batch) => lines.push(...batch),
      onStatus: (status) => statuses.push(status),
      signal: controller.signal,
      sleep: async (ms) => {
        sleeps.push(ms);
      },
      ...extra,
    });
  return { requests, lines, statuses, sleeps, controller, run };
}

describe('followTaskLog', () => {
  test('resumes after the last line when the connection drops, without duplicates', async () => {
    const h = harness([
      () => streamOf([': connected\n\n', log(1, 'one'), log(2, 'two').slice(0, 20), log(2, 'two').slice(20)]),
      () => streamOf([': connected\n\n', log(2, 'two again'), log(3, 'three', 'err'), done('completed')]),
    ]);
    // The first answer's last frame comes in two chunks, then the connection drops.
    expect(await h.run()).toBe('done');
    expect(h.requests.map((r) => r.path)).toEqual(['/api/v1/tasks/task%201/log-stream?after=0', '/api/v1/tasks/task%201/log-stream?after=2']);
    expect(h.requests[1]!.lastEventId).toBe('2');
    expect(h.lines.map((l) => [l.id, l.source, l.text])).toEqual([
      [1, 'out', 'one'],
      [2, 'out', 'two'],
      [3, 'err', 'three'],
    ]);
    expect(h.sleeps).toEqual([1000]);
    expect(h.statuses.at(-1)).toEqual({ phase: 'ended', taskStatus: 'completed', error: null });
  });

  test('a cut-off client resumes at once', async () => {
    const h = harness([
      () => streamOf([log(1, 'a'), 'event: cutoff\ndata: {"type":"error","message":"stream closed: the client did not keep up"}\n\n']),
      () => streamOf([log(2, 'b'), done('failed')]),
    ]);
    expect(await h.run()).toBe('done');
    expect(h.lines.map((l) => l.text)).toEqual(['a', 'b']);
    expect(h.sleeps).toEqual([]);
    expect(h.requests[1]!.path).toEndWith('?after=1');
  });

  test('shows why a task waits, then follows once lines come', async () => {
    const h = harness([() => streamOf([': connected\n\n: waiting: no machine of this workspace is online\n\n', ': keep-alive\n\n', log(1, 'go'), done('completed')])]);
    expect(await h.run()).toBe('done');
    const phases = h.statuses.map((s) => (s.phase === 'waiting' ? `waiting ${s.reason}` : s.phase));
    expect(phases).toEqual(['connecting', 'waiting no machine of this workspace is online', 'following', 'ended']);
  });

  test('a terminal error event ends the stream with its message', async () => {
    const h = harness([() => streamOf(['data: {"type":"error","message":"k6 not found"}\n\n'])]);
    expect(await h.run()).toBe('error');
    expect(h.statuses.at(-1)).toEqual({ phase: 'failed', message: 'k6 not found' });
  });

  test('404 stops at once with the API message', async () => {
    const h = harness([() => new Response(JSON.stringify({ error: 'not_found', message: 'task not found' }), { status: 404 })]);
    expect(await h.run()).toBe('error');
    expect(h.statuses.at(-1)).toEqual({ phase: 'failed', message: 'task not found' });
    expect(h.requests.length).toBe(1);
  });

  test('gives up after a few drops once the run is not live', async () => {
    const h = harness([() => streamOf([log(1, 'a')]), () => streamOf([]), () => streamOf([]), () => streamOf([])], false);
    expect(await h.run({ maxAttemptsWhenNotLive: 2 })).toBe('error');
    expect(h.requests.length).toBe(3);
    expect(h.statuses.at(-1)!.phase).toBe('failed');
  });

  test('stopWhenLive reads the stored lines and stops at the live point', async () => {
    const h = harness([() => streamOf([': connected\n\n', log(1, 'a'), log(2, 'b'), ': following\n\n', log(3, 'live')])]);
    expect(await h.run({ stopWhenLive: true })).toBe('replayed');
    expect(h.lines.map((l) => l.text)).toEqual(['a', 'b']);
  });

  test('abort ends the follow', async () => {
    const h = harness([() => streamOf([log(1, 'a')])]);
    h.controller.abort();
    expect(await h.run()).toBe('aborted');
  });
});
