/** list_runs, get_run and runs_by_machine: runs (tasks) with their figures, newest first. */
import { type Static, Type } from '@sinclair/typebox';
import type { RestClient } from '../rest-client.ts';
import { defineTool } from '../tool-registry.ts';
import { newestFirst, NextCursor, Nullable, pageArgs, pageOf, scanFiltered } from '../paging.ts';

export const Run = Type.Object(
  {
    id: Type.String({ description: 'the run (task) UUID' }),
    public_id: Type.String({ description: 'short id; addresses the run like its UUID' }),
    test_id: Type.String(),
    config_id: Nullable(Type.String()),
    status: Type.String({ description: 'pending, running, completed, failed or cancelled' }),
    p50: Type.Number({ description: 'median latency, milliseconds (0 until measured)' }),
    p95: Type.Number({ description: '95th percentile latency, milliseconds' }),
    p99: Type.Number({ description: '99th percentile latency, milliseconds' }),
    error_rate: Type.Number({ description: 'errors / requests, a fraction 0..1 (0.02 = 2 %)' }),
    requests_per_sec: Type.Number({ description: 'requests per second over the run' }),
    total_requests: Type.Integer(),
    machine_ids: Type.Array(Type.String(), { description: 'the machines it runs on' }),
    transport: Type.String(),
    error: Nullable(Type.String({ description: 'why it failed' })),
    pending_reason: Nullable(Type.String({ description: 'while pending: why it waits, in words' })),
    log_url: Type.String({ description: 'the live log (SSE)' }),
    created_at: Type.String(),
    started_at: Nullable(Type.String()),
    finished_at: Nullable(Type.String()),
  },
  { description: 'one run of a test; latencies in milliseconds, error_rate a fraction 0..1' },
);
export type RunView = Static<typeof Run>;

export const terminalStatuses = ['completed', 'failed', 'cancelled'];

export const RunId = Type.String({ minLength: 1, description: "the run's UUID or public id" });

export const getRunRecord = (rest: RestClient, runId: string) => rest.get<RunView>(`/tasks/${encodeURIComponent(runId)}`);

export const listRuns = defineTool({
  name: 'list_runs',
  title: 'List runs',
  description:
    'Runs (tasks) of the workspace: status, p50/p95/p99 latency in milliseconds, error_rate as a fraction 0..1, requests_per_sec, ' +
    `total_requests, the machines, timestamps. ${newestFirst} Use it to find recent results; get_run for one run, get_run_logs for its output.`,
  input: Type.Object(pageArgs, { additionalProperties: false }),
  output: pageOf(Run),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ limit, cursor }, { rest }) => rest.page<RunView>('/tasks', { limit, cursor }),
});

export const getRun = defineTool({
  name: 'get_run',
  title: 'Get a run',
  description:
    'One run by its UUID or public id: status (pending, running, completed, failed, cancelled), why it waits while pending, p50/p95/p99 ' +
    'in milliseconds, error_rate as a fraction 0..1, requests_per_sec, total_requests, error, timestamps. Figures are final once the status is ' +
    'completed, failed or cancelled; wait_for_run waits for that.',
  input: Type.Object({ run_id: RunId }, { additionalProperties: false }),
  output: Type.Object({ run: Run }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: async ({ run_id }, { rest }) => ({ run: await getRunRecord(rest, run_id) }),
});

/** REST has no filter by machine: runs are scanned newest first, this many per REST page and at most this many per call. */
const scanPageSize = 200;
const maxScannedPerCall = 5000;

export const runsByMachine = defineTool({
  name: 'runs_by_machine',
  title: 'Runs of one machine',
  description:
    'The run history of one machine (runs whose machine_ids include it), newest first, with the same fields as list_runs (latencies in ' +
    `milliseconds, error_rate a fraction 0..1). Scans up to ${maxScannedPerCall} runs per call; when next_cursor is not null there may be more.`,
  input: Type.Object({ machine_id: Type.String({ minLength: 1, description: 'the machine id' }), ...pageArgs }, { additionalProperties: false }),
  output: Type.Object({ items: Type.Array(Run), next_cursor: NextCursor, scanned: Type.Integer({ description: 'runs of the workspace looked at' }) }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ machine_id, limit, cursor }, { rest }) =>
    scanFiltered<RunView>(rest, { limit, cursor }, {
      tool: 'runs_by_machine',
      path: '/tasks',
      keep: (run) => run.machine_ids.includes(machine_id),
      pageSize: scanPageSize,
      maxScanned: maxScannedPerCall,
    }),
});
