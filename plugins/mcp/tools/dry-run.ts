/**
 * validate_test's dry run: the script, saved as a draft test for the moment, runs with 1 virtual user for 1 s (the
 * shortest load configuration) on the machine the caller chose; the answer is the run's outcome and its last log lines.
 * The test is deleted afterwards (its run is kept, like every deleted test's, so the workspace's history stays true).
 * Everything goes through REST, so the caller needs manage_tests and run_tests as for write_test and run_test.
 */
import { Type } from '@sinclair/typebox';
import type { RestClient } from '../rest-client.ts';
import { Nullable } from '../paging.ts';
import { followToEnd } from './run-control.ts';
import { getRunRecord, type RunView, terminalStatuses } from './runs.ts';

/** The load configuration every dry run uses, made once per workspace and found again by its name. */
export const dryRunConfigName = 'validate_test dry run (1 VU, 1 s)';
/** A dry run that has not ended by then (a machine busy with other runs, say) is cancelled. */
export const dryRunSeconds = 120;
const tailLines = 30;
const tailLineChars = 500;

export const DryRun = Type.Object(
  {
    run_id: Type.String({ description: 'the dry run (a run of the workspace, kept in its history)' }),
    status: Type.String({ description: 'completed, failed or cancelled (cancelled: it did not end within the dry run\'s time)' }),
    error: Nullable(Type.String({ description: 'why it failed' })),
    total_requests: Type.Integer(),
    error_rate: Type.Number({ description: 'a fraction 0..1' }),
    log_tail: Type.Array(Type.String(), { description: `the run's last ${tailLines} log lines` }),
  },
  { description: 'the script run once, briefly, on the chosen machine' },
);

interface Named {
  id: string;
  name: string;
}

async function dryRunConfig(rest: RestClient): Promise<string> {
  let cursor: string | null = null;
  // Configurations are few; a bounded scan finds ours when it exists.
  for (let page = 0; page < 20; page++) {
    const found: { items: Named[]; next_cursor: string | null } = await rest.page<Named>('/configs', { limit: 100, cursor });
    const ours = found.items.find((config) => config.name === dryRunConfigName);
    if (ours) return ours.id;
    if (!found.next_cursor) break;
    cursor = found.next_cursor;
  }
  return (await rest.send<Named>('POST', '/configs', { name: dryRunConfigName, vus: 1, duration: '1s' })).id;
}

/** The stored log's last lines: the stream replays them from the start and ends with the run's final record. */
async function logTail(rest: RestClient, runId: string, signal: AbortSignal): Promise<string[]> {
  const response = await rest.stream(`/tasks/${encodeURIComponent(runId)}/log-stream`, { after: '0' }, AbortSignal.any([signal, AbortSignal.timeout(15_000)]));
  const text = await new Response(response.body).text().catch(() => '');
  const lines: string[] = [];
  for (const line of text.split('\n')) {
    if (!line.startsWith('data:')) continue;
    const event = JSON.parse(line.slice(5)) as { type?: string; text?: string };
    if (event.type === 'log' && typeof event.text === 'string') lines.push(event.text.slice(0, tailLineChars));
  }
  return lines.slice(-tailLines);
}

export async function dryRun(rest: RestClient, signal: AbortSignal, request: { tool: string; script: string; machineId: string }) {
  const configId = await dryRunConfig(rest);
  const test = await rest.send<Named>('POST', '/tests', { name: `validate_test dry run ${new Date().toISOString()}`, tool: request.tool, script: request.script, status: 'draft' });
  try {
    const started = await rest.send<{ id: string }>('POST', '/tasks', { testId: test.id, machineIds: [request.machineId], configId });
    await followToEnd(rest, started.id, AbortSignal.any([signal, AbortSignal.timeout(dryRunSeconds * 1000)]));
    let run: RunView = await getRunRecord(rest, started.id);
    if (!terminalStatuses.includes(run.status)) {
      await rest.send('DELETE', `/tasks/${encodeURIComponent(run.id)}`).catch(() => {});
      run = await getRunRecord(rest, started.id);
    }
    return {
      run_id: run.id,
      status: run.status,
      error: run.error,
      total_requests: run.total_requests,
      error_rate: run.error_rate,
      log_tail: await logTail(rest, run.id, signal),
    };
  } finally {
    await rest.send('DELETE', `/tests/${encodeURIComponent(test.id)}`).catch(() => {});
  }
}
