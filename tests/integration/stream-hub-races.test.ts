/**
 * The stream hub where a busy replica gets to a subscriber late: a client that connected while the run was going gets
 * every line and then `done`, even when the run has ended by the time its replay starts, or ends while it replays.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createLogStore, type LogStore } from '../../core/services/runs/log-store.ts';
import { createStreamHub } from '../../core/services/runs/stream-hub.ts';
import type { StreamSink, TaskEvent } from '../../core/services/runs/task-events.ts';
import { waitFor } from '../helpers/process-probes.ts';
import { scriptLines } from '../helpers/script-log.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';

const lineCount = 40;
let fixture: ServiceWithAgent;
let finishedTaskId: string;
/** Every line the run stored: the script's, and any progress line the agent wrote in a quiet spell (a slow start). */
let storedLines: string[];

beforeAll(async () => {
  fixture = await startServiceWithAgent('hub-races');
  const { ts, token } = fixture;
  const script = `#!/bin/sh\ni=1\nwhile [ $i -le ${lineCount} ]; do echo "line $i"; i=$((i+1)); done\n`;
  const test = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'hub races', tool: 'custom', script } });
  const { id: testId } = (await test.json()) as { id: string };
  const started = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId } });
  finishedTaskId = ((await started.json()) as { id: string }).id;
  const status = async () => ((await (await ts.request(`/api/v1/tasks/${finishedTaskId}`, { token })).json()) as { status: string }).status;
  await waitFor(async () => (await status()) === 'completed', 45_000, 'the run to complete');
  storedLines = (await createLogStore(fixture.ts.service.database).read(finishedTaskId, 0, 1_000)).map((line) => line.text);
  expect(scriptLines(storedLines)).toEqual(Array.from({ length: lineCount }, (_, i) => `line ${i + 1}`));
}, 60_000);

afterAll(() => fixture?.stop());

/** A sink that records what a client would receive, and how its stream ended. */
function recordingSink() {
  const events: TaskEvent[] = [];
  let endedWith: string | null = null;
  const sink: StreamSink = {
    send(batch) {
      events.push(...batch);
      return true;
    },
    end(reason) {
      endedWith ??= reason;
    },
  };
  return {
    sink,
    lines: () => events.flatMap((event) => (event.type === 'log' ? [event.text] : [])),
    last: () => events.at(-1)?.type,
    endedWith: () => endedWith,
  };
}

/** A hub over the service's database whose replay reads (not the feed's) wait until `release`. */
function hubWithGatedReplay() {
  const logs = createLogStore(fixture.ts.service.database);
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  const gated: LogStore = {
    ...logs,
    async read(taskId, afterSeq, limit, withRelay) {
      if (!withRelay) await gate;
      return logs.read(taskId, afterSeq, limit, withRelay);
    },
  };
  const errors: unknown[] = [];
  const hub = createStreamHub({ db: fixture.ts.service.database, logs: gated, publicUrl: fixture.ts.url || 'http://localhost', onError: (e) => errors.push(e) });
  return { hub, release, errors };
}

describe('a subscriber the replica gets to late', () => {
  test('seen running when it connected: every line, then done, though the run ended before its replay', async () => {
    const { hub, release, errors } = hubWithGatedReplay();
    release();
    const client = recordingSink();
    await hub.follow(finishedTaskId, null, client.sink, true);
    await waitFor(() => client.endedWith() !== null, 30_000, 'the subscriber to end');
    expect(client.lines()).toEqual(storedLines);
    expect(client.last()).toBe('done');
    expect(client.endedWith()).toBe('done');
    expect(errors).toEqual([]);
  });

  test('connected after the end: one done from the record, as the spec says', async () => {
    const { hub, release } = hubWithGatedReplay();
    release();
    const client = recordingSink();
    await hub.follow(finishedTaskId, null, client.sink, false);
    expect(client.lines()).toEqual([]);
    expect(client.last()).toBe('done');
  });

  test('the terminal event arrives while the subscriber still replays: it gets every line, then done', async () => {
    const { hub, release, errors } = hubWithGatedReplay();
    const client = recordingSink();
    const following = hub.follow(finishedTaskId, null, client.sink, true);
    // The feed learns the run ended and reaches its terminal event while this subscriber's replay waits.
    hub.finished(finishedTaskId);
    await waitFor(() => !hub.followedTasks().includes(finishedTaskId), 30_000, 'the feed to stop following the run');
    expect(hub.followedTasks()).not.toContain(finishedTaskId);
    expect(client.endedWith()).toBeNull();
    release();
    await following;
    await waitFor(() => client.endedWith() !== null, 30_000, 'the subscriber to end');
    expect(client.lines()).toEqual(storedLines);
    expect(client.last()).toBe('done');
    expect(client.endedWith()).toBe('done');
    expect(errors).toEqual([]);
  });
});
