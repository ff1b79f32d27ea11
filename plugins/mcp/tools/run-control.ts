/** run_test, cancel_run and wait_for_run: start a run, stop it, and wait (bounded) for its end. */
import { Type } from '@sinclair/typebox';
import type { RestClient } from '../rest-client.ts';
import { readSse } from '../sse-reader.ts';
import { defineTool } from '../tool-registry.ts';
import { Nullable } from '../paging.ts';
import { getRunRecord, Run, RunId, type RunView, terminalStatuses } from './runs.ts';

interface StartAnswer {
  id: string;
  public_id: string;
  status: string;
  pending_reason: string | null;
  stream: Record<string, { url: string; transport: string }>;
}

/** Where a run's live log is followed, on the site address the client reached (SSE and WebSocket alike). */
export function logStreamUrls(rest: RestClient, runId: string) {
  const base = `${rest.address.siteUrl}/api/v1/tasks/${encodeURIComponent(runId)}`;
  return { sse: `${base}/log-stream`, websocket: `${base.replace(/^http/, 'ws')}/ws` };
}

export const runTest = defineTool({
  name: 'run_test',
  title: 'Run a test',
  description:
    "Starts a test: a new run (task) on the workspace's machines. Returns at once with the run's id and status pending (why it waits, " +
    'when no machine is free or online) and the URLs of its live log (SSE and WebSocket, the same bearer token). Follow it with ' +
    "wait_for_run (final figures), get_run or get_run_logs. Optional: machine_ids to run on several machines together (the load is split), " +
    'config_id of a load configuration (list_configs / write_config: vus + duration, or stages); without one the script decides ' +
    '(an http test runs its steps once with one virtual user). Needs the permission run_tests and, for a scoped token, runs:write.',
  input: Type.Object(
    {
      test_id: Type.String({ minLength: 1, description: 'the test to run (list_tests)' }),
      machine_ids: Type.Optional(Type.Array(Type.String({ minLength: 1 }), { minItems: 1, maxItems: 50, description: 'machines to run on together; default: one free machine' })),
      config_id: Type.Optional(Type.String({ minLength: 1, description: 'a load configuration (list_configs)' })),
      transport: Type.Optional(
        Type.Union([Type.Literal('sse'), Type.Literal('ws'), Type.Literal('long_polling')], { description: 'the live log transport the start answer advertises; default sse' }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    run_id: Type.String(),
    public_id: Type.String(),
    status: Type.String(),
    pending_reason: Nullable(Type.String()),
    log_stream: Type.Object(
      { sse: Type.String(), websocket: Type.String() },
      { description: 'GET with Authorization: Bearer <token>; one JSON event per message: log lines, then done with the final record' },
    ),
    stream: Type.Record(Type.String(), Type.Object({ url: Type.String(), transport: Type.String() }), { description: 'by machine id, as REST answers' }),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run({ test_id, machine_ids, config_id, transport }, { rest }) {
    const started = await rest.send<StartAnswer>('POST', '/tasks', {
      testId: test_id,
      ...(machine_ids ? { machineIds: machine_ids } : {}),
      ...(config_id ? { configId: config_id } : {}),
      ...(transport ? { transport } : {}),
    });
    return {
      run_id: started.id,
      public_id: started.public_id,
      status: started.status,
      pending_reason: started.pending_reason,
      log_stream: logStreamUrls(rest, started.id),
      stream: started.stream,
    };
  },
});

export const cancelRun = defineTool({
  name: 'cancel_run',
  title: 'Cancel a run',
  description:
    'Cancels a pending or running run: the agents stop the tool at once and the run ends cancelled, keeping the figures measured so far. ' +
    'A run that already ended is left as it is. Returns the run record as it stands after the request. Needs run_tests (runs:write).',
  input: Type.Object({ run_id: RunId }, { additionalProperties: false }),
  output: Type.Object({ run: Run }),
  annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
  async run({ run_id }, { rest }) {
    await rest.send('DELETE', `/tasks/${encodeURIComponent(run_id)}`);
    return { run: await getRunRecord(rest, run_id) };
  },
});

export const defaultWaitSeconds = 60;
export const maxWaitSeconds = 600;
/** After `after=` this, the stream sends no log line, only the terminal event: what a wait needs. */
const pastEveryLine = String(Number.MAX_SAFE_INTEGER);
/** A stream that ends without the terminal event (access rechecked, a replica stopping) is opened again, this often at most. */
const maxReconnects = 10;

/** Follows the run's stream until its terminal event, the deadline, or the caller leaving; resolves either way. */
export async function followToEnd(rest: RestClient, runId: string, deadline: AbortSignal): Promise<void> {
  for (let attempt = 0; attempt < maxReconnects && !deadline.aborted; attempt++) {
    let response: Response;
    try {
      response = await rest.stream(`/tasks/${encodeURIComponent(runId)}/log-stream`, { after: pastEveryLine }, deadline);
    } catch (error) {
      if (deadline.aborted) return;
      throw error;
    }
    if (!response.body) return;
    try {
      for await (const item of readSse(response.body, deadline)) {
        if (item.kind !== 'event') continue;
        const type = (JSON.parse(item.data) as { type?: string }).type;
        if (type === 'done' || type === 'error') return;
      }
    } catch (error) {
      // Over the network the deadline aborts the read itself.
      if (deadline.aborted) return;
      throw error;
    }
  }
}

export const waitForRun = defineTool({
  name: 'wait_for_run',
  title: 'Wait for a run to end',
  description:
    `Waits until a run ends (completed, failed or cancelled), at most timeout_seconds (default ${defaultWaitSeconds}, at most ${maxWaitSeconds}), ` +
    'then returns its record: p50/p95/p99 in milliseconds, error_rate a fraction 0..1, requests_per_sec, total_requests, error. finished is ' +
    'false when the time ran out first (the record is then the current one: call again to keep waiting). Use it after run_test.',
  input: Type.Object(
    {
      run_id: RunId,
      timeout_seconds: Type.Optional(
        Type.Integer({ minimum: 1, maximum: maxWaitSeconds, default: defaultWaitSeconds, description: `seconds to wait at most, 1..${maxWaitSeconds} (default ${defaultWaitSeconds})` }),
      ),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    run: Run,
    finished: Type.Boolean({ description: 'the run has ended: its figures are final' }),
    waited_seconds: Type.Number(),
    note: Type.Optional(Type.String()),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run({ run_id, timeout_seconds = defaultWaitSeconds }, { rest, signal }) {
    const began = performance.now();
    let run: RunView = await getRunRecord(rest, run_id);
    if (!terminalStatuses.includes(run.status)) {
      // The stream wakes the wait the moment the run ends; no polling. Its id is the UUID, whichever id was given.
      await followToEnd(rest, run.id, AbortSignal.any([signal, AbortSignal.timeout(timeout_seconds * 1000)]));
      run = await getRunRecord(rest, run.id);
    }
    const finished = terminalStatuses.includes(run.status);
    const waited = Math.round((performance.now() - began) / 100) / 10;
    return {
      run,
      finished,
      waited_seconds: waited,
      ...(finished ? {} : { note: `still ${run.status} after ${waited} s${run.pending_reason ? ` (${run.pending_reason})` : ''}; call wait_for_run again to keep waiting` }),
    };
  },
});
