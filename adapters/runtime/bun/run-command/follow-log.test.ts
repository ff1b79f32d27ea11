/**
 * Following a run's log: lines in order, why a pending run waits said once per change, the stream opened again with
 * `after=` the last line after a drop or a cut-off, nothing repeated, and the ends: `done`, a refusal, a service gone.
 */
import { describe, expect, test } from 'bun:test';
import { type RestClient, RestError } from '../../../../plugins/mcp/rest-client.ts';
import { FollowError, followLog, type LogLine } from './follow-log.ts';

type Answer = string | Error | { body: string; thenFail: true };

/** A client whose log stream answers, one connection after another, with the given SSE texts (or errors). */
function fakeClient(answers: Answer[]) {
  const asked: (Record<string, unknown> | undefined)[] = [];
  const client = {
    async stream(_path: string, query?: Record<string, unknown>) {
      asked.push(query);
      const answer = answers.shift();
      if (answer === undefined) throw new Error('no more answers scripted');
      if (answer instanceof Error) throw answer;
      const text = typeof answer === 'string' ? answer : answer.body;
      const fails = typeof answer !== 'string';
      let pulls = 0;
      // The text first; then the end, or (a dropped connection) an error once it was read.
      const body = new ReadableStream<Uint8Array>({
        pull(controller) {
          if (pulls++ === 0) controller.enqueue(new TextEncoder().encode(text));
          else if (fails) controller.error(new Error('socket hang up'));
          else controller.close();
        },
      });
      return new Response(body);
    },
  } as unknown as RestClient;
  return { client, asked };
}

const log = (id: number, text: string) => `id: ${id}\ndata: ${JSON.stringify({ type: 'log', source: 'out', text, id })}\n\n`;
const done = `id: end\ndata: ${JSON.stringify({ type: 'done', task: { status: 'completed' } })}\n\n`;

async function follow(answers: Answer[], giveUpAfterMs = 60_000) {
  const { client, asked } = fakeClient(answers);
  const lines: LogLine[] = [];
  const said: string[] = [];
  const result = followLog(client, 'task-1', {
    onLine: (line) => lines.push(line),
    onWaiting: (reason) => said.push(`waiting: ${reason}`),
    onReconnect: (reason) => said.push(`reconnect: ${reason}`),
    retryDelayMs: () => 1,
    giveUpAfterMs,
  });
  return { result, lines, said, asked };
}

describe('followLog', () => {
  test('lines in order until done; why it waits, once per change', async () => {
    const run = await follow([': connected\n\n: waiting: no machine of this workspace is online\n\n: keep-alive\n\n: waiting: no machine of this workspace is online\n\n: waiting: machine gen-2 is offline\n\n' + log(1, 'a') + log(2, 'b') + done]);
    await run.result;
    expect(run.lines.map((l) => [l.id, l.text])).toEqual([
      [1, 'a'],
      [2, 'b'],
    ]);
    expect(run.said).toEqual(['waiting: no machine of this workspace is online', 'waiting: machine gen-2 is offline']);
    expect(run.asked).toEqual([undefined]);
  });

  test('a dropped connection and a cut-off: followed again after the last line, nothing repeated', async () => {
    const cutoff = `event: cutoff\ndata: ${JSON.stringify({ type: 'error', message: 'stream closed: the client did not keep up' })}\n\n`;
    const run = await follow([
      { body: log(1, 'a') + log(2, 'b'), thenFail: true },
      new RestError(0, 'service_unreachable', 'no answer'),
      log(2, 'b') + log(3, 'c') + cutoff,
      log(4, 'd'),
      log(5, 'e') + done,
    ]);
    await run.result;
    expect(run.lines.map((l) => l.text)).toEqual(['a', 'b', 'c', 'd', 'e']);
    expect(run.asked).toEqual([undefined, { after: 2 }, { after: 2 }, { after: 3 }, { after: 4 }]);
    expect(run.said.filter((s) => s.startsWith('reconnect'))).toHaveLength(4);
  });

  test('a refusal (revoked access, the task gone) ends it; so does a service away for longer than allowed', async () => {
    const revoked = `event: revoked\ndata: ${JSON.stringify({ type: 'error', message: 'stream closed: access was revoked' })}\n\n`;
    await expect((await follow([log(1, 'a') + revoked])).result).rejects.toThrow(new FollowError('the log stream ended: stream closed: access was revoked'));
    await expect((await follow([new RestError(404, 'not_found', 'task not found')])).result).rejects.toThrow('task not found');
    const away = await follow(Array.from({ length: 50 }, () => new RestError(0, 'service_unreachable', 'no answer from x')), 20);
    await expect(away.result).rejects.toThrow(/lost the log stream for more than 0 s: no answer from x/);
  });
});
