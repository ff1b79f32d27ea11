/**
 * Follows a task's log over SSE (`GET /api/v1/tasks/{id}/log-stream`) with fetch: parses frames, reports lines in
 * batches, shows comment lines (why a task waits), and resumes after the last line id when the connection drops.
 */
import { SseParser } from './sse-parser';

export interface LogLine {
  /** The line's number in the run (1, 2, 3 ...), null when the server gave none. */
  id: number | null;
  source: 'out' | 'err';
  /** The text as printed, escape sequences included. */
  text: string;
  machineId?: string;
}

export type StreamStatus =
  | { phase: 'connecting'; attempt: number }
  | { phase: 'following' }
  | { phase: 'waiting'; reason: string }
  | { phase: 'note'; text: string }
  | { phase: 'reconnecting'; inSeconds: number; reason: string }
  | { phase: 'ended'; taskStatus: string | null; error: string | null }
  | { phase: 'failed'; message: string };

export interface FollowOptions {
  taskId: string;
  /** fetch of a same-origin path with the caller's credentials (authorizedFetch). */
  fetch: (path: string, init: RequestInit) => Promise<Response>;
  /** Whether the run may still print: a dropped connection is then resumed. */
  isLive: () => boolean;
  onLines: (lines: LogLine[]) => void;
  onStatus: (status: StreamStatus) => void;
  signal: AbortSignal;
  /** Start after this line id (0: from the first stored line). */
  after?: number;
  /** Stop once the stored lines are replayed (the server's `: following` comment): reading the stored log. */
  stopWhenLive?: boolean;
  /** Waits between attempts (replaceable in tests). */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  /** Attempts allowed after a drop while the run is not live any more. */
  maxAttemptsWhenNotLive?: number;
}

export type FollowOutcome = 'done' | 'error' | 'aborted' | 'replayed';

const quietComments = new Set(['connected', 'keep-alive', 'following']);

export function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(done, ms);
    function done() {
      clearTimeout(timer);
      signal.removeEventListener('abort', done);
      resolve();
    }
    signal.addEventListener('abort', done, { once: true });
  });
}

/** The backoff before attempt n (1-based): 1 s, 2 s, 4 s, 8 s, then 10 s. */
export function backoffMillis(attempt: number): number {
  return Math.min(10_000, 1000 * 2 ** Math.max(0, attempt - 1));
}

async function errorMessage(response: Response): Promise<string> {
  const text = await response.text().catch(() => '');
  try {
    const body = JSON.parse(text) as { message?: unknown };
    if (typeof body.message === 'string' && body.message) return body.message;
  } catch {
    // not JSON
  }
  return `The log stream answered ${response.status}.`;
}

/** Follows the log until the terminal event, an unrecoverable error, or the signal aborts. */
export async function followTaskLog(options: FollowOptions): Promise<FollowOutcome> {
  const { taskId, signal, onLines, onStatus } = options;
  const sleep = options.sleep ?? defaultSleep;
  let lastId = options.after ?? 0;
  let failures = 0;

  while (!signal.aborted) {
    onStatus({ phase: 'connecting', attempt: failures + 1 });
    let dropReason = 'the connection was lost';
    let immediate = false;
    try {
      const path = `/api/v1/tasks/${encodeURIComponent(taskId)}/log-stream?after=${lastId}`;
      const response = await options.fetch(path, {
        headers: { Accept: 'text/event-stream', 'Last-Event-ID': String(lastId) },
        signal,
        cache: 'no-store',
      });
      if (!response.ok || !response.body) {
        const message = await errorMessage(response);
        if (response.status === 403 || response.status === 404 || response.status === 400) {
          onStatus({ phase: 'failed', message });
          return 'error';
        }
        throw new Error(message);
      }
      const reader = response.body.pipeThrough(new TextDecoderStream()).getReader();
      const parser = new SseParser();
      let waiting = false;
      let reported = false;
      for (;;) {
        const { value, done } = await reader.read();
        if (done) break;
        const batch: LogLine[] = [];
        let outcome: FollowOutcome | null = null;
        for (const message of parser.push(value)) {
          if (message.kind === 'comment') {
            const text = message.text.trim();
            if (text === 'following' && options.stopWhenLive) {
              outcome = 'replayed';
              break;
            }
            if (quietComments.has(text)) continue;
            if (text.startsWith('waiting:')) {
              waiting = true;
              onStatus({ phase: 'waiting', reason: text.slice('waiting:'.length).trim() });
            } else onStatus({ phase: 'note', text });
            continue;
          }
          let event: { type?: unknown; text?: unknown; source?: unknown; id?: unknown; machine_id?: unknown; message?: unknown; task?: { status?: unknown; error?: unknown } };
          try {
            event = JSON.parse(message.data);
          } catch {
            continue; // not an event of ours
          }
          if (event.type === 'log') {
            const id = typeof event.id === 'number' ? event.id : /^\d+$/.test(message.id ?? '') ? Number(message.id) : null;
            if (id !== null) {
              if (id <= lastId) continue; // never a duplicate after a resume
              lastId = id;
            }
            const line: LogLine = { id, source: event.source === 'err' ? 'err' : 'out', text: typeof event.text === 'string' ? event.text : String(event.text ?? '') };
            if (typeof event.machine_id === 'string') line.machineId = event.machine_id;
            batch.push(line);
          } else if (event.type === 'done') {
            const task = event.task ?? {};
            outcome = 'done';
            if (batch.length) onLines(batch.splice(0));
            onStatus({ phase: 'ended', taskStatus: typeof task.status === 'string' ? task.status : null, error: typeof task.error === 'string' ? task.error : null });
            break;
          } else if (event.type === 'error') {
            const text = typeof event.message === 'string' ? event.message : 'the stream ended with an error';
            if (message.event === 'cutoff') {
              // This client fell behind: resume at once after the last line it has.
              dropReason = text;
              immediate = true;
              outcome = null;
              break;
            }
            if (batch.length) onLines(batch.splice(0));
            onStatus({ phase: 'failed', message: text });
            outcome = 'error';
            break;
          }
        }
        if (batch.length) {
          if (waiting) {
            waiting = false;
            reported = false;
          }
          onLines(batch);
          failures = 0;
        }
        if (outcome !== null || immediate) {
          await reader.cancel().catch(() => {});
          if (outcome !== null) return outcome;
          break;
        }
        if (!reported && !waiting) {
          // Connected and reading: report it once per connection.
          onStatus({ phase: 'following' });
          reported = true;
        }
      }
    } catch (error) {
      if (signal.aborted) return 'aborted';
      dropReason = error instanceof Error && error.message ? error.message : dropReason;
    }
    if (signal.aborted) return 'aborted';
    failures++;
    const live = options.isLive();
    if (!live && failures > (options.maxAttemptsWhenNotLive ?? 3)) {
      onStatus({ phase: 'failed', message: `The log stream ended early: ${dropReason}.` });
      return 'error';
    }
    const wait = immediate ? 0 : backoffMillis(failures);
    onStatus({ phase: 'reconnecting', inSeconds: Math.round(wait / 1000), reason: dropReason });
    if (wait > 0) await sleep(wait, signal);
  }
  return 'aborted';
}
