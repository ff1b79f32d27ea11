/**
 * get_run_logs: the full stored log of a run, page by page, read from the log stream's stored replay (GET
 * /tasks/{id}/log-stream?after=<line id>), which REST offers for finished and running runs alike.
 */
import { Type } from '@sinclair/typebox';
import { RestError } from '../rest-client.ts';
import { readSse } from '../sse-reader.ts';
import { defineTool } from '../tool-registry.ts';
import { NextCursor } from '../paging.ts';
import { getRunRecord, RunId, terminalStatuses } from './runs.ts';

export const maxLogPageLines = 2000;
export const defaultLogPageLines = 500;
/** A page stops early past this much text: a model reads every byte of it. */
export const maxLogPageChars = 256 * 1024;
/** The replay of one page comes at once; this only stops a stream that would never say where its replay ends. */
const pageReadMillis = 30_000;

const LogLine = Type.Object({
  id: Type.Integer({ description: 'the line id; increasing' }),
  source: Type.String({ description: 'out (stdout) or err (stderr)' }),
  text: Type.String(),
  machine_id: Type.Optional(Type.String()),
});

interface LogEvent {
  type: 'log' | 'done' | 'error';
  id?: number;
  source?: string;
  text?: string;
  machine_id?: string;
}

export const getRunLogs = defineTool({
  name: 'get_run_logs',
  title: 'Run logs',
  description:
    "A run's whole stored output (the load tool's stdout and stderr, with the agent's progress lines), oldest first, one page at a time: " +
    `up to limit lines (default ${defaultLogPageLines}, at most ${maxLogPageLines}) or about ${maxLogPageChars / 1024} KB of text. Pass next_cursor back ` +
    'as cursor for the next page. complete is true once the last line of a finished run has been returned; for a run still going, ' +
    'next_cursor picks up where this page ended when called again.',
  input: Type.Object(
    {
      run_id: RunId,
      cursor: Type.Optional(Type.String({ pattern: '^[0-9]+$', description: 'next_cursor of the previous page (a line id); omit for the first line' })),
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: maxLogPageLines, default: defaultLogPageLines, description: 'lines per page' })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    run_id: Type.String(),
    status: Type.String({ description: "the run's status when the page was read" }),
    lines: Type.Array(LogLine),
    next_cursor: NextCursor,
    complete: Type.Boolean({ description: 'the run has ended and no line follows' }),
    note: Type.Optional(Type.String()),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run({ run_id, cursor, limit = defaultLogPageLines }, { rest, signal }) {
    const run = await getRunRecord(rest, run_id);
    const ended = terminalStatuses.includes(run.status);
    const stop = AbortSignal.any([signal, AbortSignal.timeout(pageReadMillis)]);
    const response = await rest.stream(`/tasks/${encodeURIComponent(run.id)}/log-stream`, { after: cursor ?? '0' }, stop);
    const lines: { id: number; source: string; text: string; machine_id?: string }[] = [];
    let chars = 0;
    let complete = false;
    let why: 'full' | 'live' | 'ended-stream' = 'ended-stream';
    try {
      for await (const item of readSse(response.body!, stop)) {
        // `: following`: the stored lines are all sent and the stream now waits for new ones (a run still going).
        if (item.kind === 'comment') {
          if (item.text === 'following' && !ended) {
            why = 'live';
            break;
          }
          continue;
        }
        const event = JSON.parse(item.data) as LogEvent;
        if (event.type === 'done' || event.type === 'error') {
          complete = true;
          break;
        }
        if (event.type !== 'log' || event.id === undefined) continue;
        lines.push({ id: event.id, source: event.source ?? 'out', text: event.text ?? '', ...(event.machine_id ? { machine_id: event.machine_id } : {}) });
        chars += (event.text ?? '').length;
        if (lines.length >= limit || chars >= maxLogPageChars) {
          why = 'full';
          break;
        }
      }
    } catch (error) {
      if (!stop.aborted) throw error;
      if (signal.aborted) throw new RestError(499, 'cancelled', 'the request was cancelled');
    }
    const last = lines.at(-1)?.id ?? (cursor ? Number(cursor) : 0);
    return {
      run_id: run.id,
      status: run.status,
      lines,
      next_cursor: complete ? null : String(last),
      complete,
      ...(why === 'live' && !complete ? { note: `the run is ${run.status}: more lines may follow; call again with cursor ${last}` } : {}),
    };
  },
});
