/**
 * Follows a run's log (`GET /tasks/{id}/log-stream`, SSE) until its `done` event: each line as it comes, why a pending
 * run waits when that changes, and on a dropped connection (a proxy's idle cut, a replica going away, a client cut off
 * for falling behind) the stream opened again with `after=<last line's id>`, so no line is lost or repeated.
 */
import { readSse } from '../../../../plugins/mcp/sse-reader.ts';
import { type RestClient, RestError } from '../../../../plugins/mcp/rest-client.ts';

export interface LogLine {
  id: number | null;
  source: 'out' | 'err';
  text: string;
  machine_id?: string;
}

export interface FollowOptions {
  onLine(line: LogLine): void;
  /** Why the pending run waits (`no machine of this workspace is online`), once per change. */
  onWaiting(reason: string): void;
  /** Said when the connection dropped and the stream is opened again. */
  onReconnect(reason: string, attempt: number): void;
  signal?: AbortSignal;
  /** How long the service may stay unreachable before following gives up (default 5 minutes). */
  giveUpAfterMs?: number;
  /** Waits between attempts (tests shorten them). */
  retryDelayMs?: (attempt: number) => number;
}

/** The stream ended for good: the service refused it (revoked access, the task gone) or stayed unreachable. */
export class FollowError extends Error {}

const defaultDelay = (attempt: number) => Math.min(500 * 2 ** (attempt - 1), 10_000);

/** An answer that will not change by asking again: the token or its rights, the task gone. */
const permanent = (error: unknown) => error instanceof RestError && error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 429;

/** Follows the log of `taskId` until the run ends; resolves once its `done` event came. */
export async function followLog(client: RestClient, taskId: string, options: FollowOptions): Promise<void> {
  const giveUpAfter = options.giveUpAfterMs ?? 5 * 60_000;
  const delay = options.retryDelayMs ?? defaultDelay;
  let lastId: number | null = null;
  let lastWaiting: string | null = null;
  let failingSince: number | null = null;
  let attempt = 0;
  for (;;) {
    let reason: string;
    try {
      const response = await client.stream(`/tasks/${encodeURIComponent(taskId)}/log-stream`, lastId === null ? undefined : { after: lastId }, options.signal);
      if (!response.body) throw new Error('the log stream answered without a body');
      // The service answers: only time without any answer counts toward giving up.
      failingSince = null;
      for await (const item of readSse(response.body, options.signal)) {
        if (item.kind === 'comment') {
          const waiting = /^waiting:\s*(.*)$/.exec(item.text);
          if (waiting && waiting[1] !== lastWaiting) {
            lastWaiting = waiting[1]!;
            options.onWaiting(lastWaiting);
          }
          continue;
        }
        // An event arrived: the stream works again, the next drop waits the shortest time.
        attempt = 0;
        let event: { type?: string; id?: number; source?: string; text?: string; machine_id?: string; message?: string };
        try {
          event = JSON.parse(item.data) as typeof event;
        } catch {
          continue;
        }
        if (event.type === 'log') {
          const id = typeof event.id === 'number' ? event.id : item.id !== null && /^\d+$/.test(item.id) ? Number(item.id) : null;
          // A line seen before a reconnect is not printed twice (a server that replays from an older point).
          if (id !== null && lastId !== null && id <= lastId) continue;
          if (id !== null) lastId = id;
          options.onLine({ id, source: event.source === 'err' ? 'err' : 'out', text: event.text ?? '', ...(event.machine_id ? { machine_id: event.machine_id } : {}) });
        } else if (event.type === 'done') {
          return;
        } else if (event.type === 'error') {
          // `cutoff`: this client fell behind; following again from the last line catches up. `revoked`: final.
          if (item.event === 'cutoff') break;
          throw new FollowError(`the log stream ended: ${event.message ?? 'an error'}`);
        }
      }
      if (options.signal?.aborted) return;
      reason = 'the log stream closed before the run ended';
    } catch (error) {
      if (options.signal?.aborted) return;
      if (error instanceof FollowError) throw error;
      if (permanent(error)) throw new FollowError((error as RestError).message);
      reason = error instanceof Error ? error.message : String(error);
    }
    failingSince ??= Date.now();
    if (Date.now() - failingSince > giveUpAfter) {
      throw new FollowError(`lost the log stream for more than ${Math.round(giveUpAfter / 1000)} s: ${reason}`);
    }
    attempt += 1;
    options.onReconnect(reason, attempt);
    await sleep(delay(attempt), options.signal);
  }
}

function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(resolve, ms);
    signal?.addEventListener(
      'abort',
      () => {
        clearTimeout(timer);
        resolve();
      },
      { once: true },
    );
  });
}
