/**
 * `loadplane run <test> [--wait] [--junit FILE] ...`: starts a run of a test; with --wait follows its log on stderr to
 * the end, prints the figures, the per-endpoint table and the verdict on stdout, and exits 0 (passed), 1 (failed) or 2
 * (usage or connection error): the gate of a CI job (docs/ci.md).
 */
import { writeFile } from 'node:fs/promises';
import { resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createRestClient, type RestClient, RestError, serviceAddress } from '../../../../plugins/mcp/rest-client.ts';
import { resolveConnection, UsageError } from '../cli-connection.ts';
import { FollowError, followLog } from './follow-log.ts';
import { junitReport } from './junit.ts';
import { resolveConfig, resolveMachines, resolveTest } from './resolve-names.ts';
import { formatComparison, formatReport } from './run-report.ts';
import type { Comparison, EndpointFigures, TaskRecord } from './run-types.ts';

export const runUsage = `usage: loadplane run <test id or name> [--wait] [--junit FILE] [--compare baseline|RUN]
                     [--config ID|NAME] [--machines a,b] [--pending-timeout SECONDS]
                     [--server URL] [--token-file FILE]
  (in the repository: npm run --silent loadplane -- run ...)

Starts a run of a test of the token's workspace (its id, or its exact name). Without --wait it prints the run's id,
public id and address and exits 0 at once. With --wait it follows the run's log on stderr (why it waits while it is
pending; the stream is opened again after a dropped connection, without losing or repeating a line), then prints on
stdout the run's figures, the per-endpoint table, each threshold with its actual figure and limit, and the verdict.

  --wait             follow the run to its end; the exit code is its outcome
  --junit FILE       with --wait: write a JUnit XML report to FILE, one testcase per threshold (a failure names the
                     actual figure and the limit), or one for the run itself when the test has no thresholds
  --compare WHAT     with --wait: print the changes against the test's baseline ("baseline") or another run (id or
                     public id). Informational: it never changes the exit code; without a baseline it says so
  --config ID|NAME   a load configuration (vus + duration, or stages)
  --machines a,b     run on these machines together (ids or hostnames); default: one free machine
  --pending-timeout SECONDS
                     fail the run when no machine takes it within this time (default: it waits)
  --server URL       the Loadplane address (env LOADPLANE_URL)
  --token-file FILE  a file holding an API token that only its owner may read, or env LOADPLANE_TOKEN: scopes
                     tests:read, runs:read and runs:write (and machines:read for hostnames in --machines). A token
                     is never needed on the command line

Exit codes (with --wait): 0 the run completed and its thresholds passed (or it has none); 1 the run failed, was
cancelled or its thresholds failed; 2 a usage error (an unknown option, an unknown test, no token) or the service
could not be reached or refused a request (its message is shown). Without --wait: 0 once the run is started.
Interrupted while waiting (Ctrl-C, SIGINT, or SIGTERM as a CI job's cancel sends), it cancels the run, so a stopped
job leaves no run going, and exits 130 (143 for SIGTERM); a second signal exits at once without waiting for the
cancel. Guide: docs/ci.md.`;

/** What the command prints, where: stdout for the result, stderr for the log and for what it says along the way. */
export interface RunOutput {
  out(text: string): void;
  err(text: string): void;
}

class Exit extends Error {
  constructor(readonly code: number) {
    super(`exit ${code}`);
  }
}

const runUrlOf = (client: RestClient, task: { id: string }) => `${client.address.siteUrl}/runs/${task.id}`;

/** A service error in words: its message, and what was asked when that helps. */
function describeRestError(error: RestError, what: string): string {
  if (error.status === 0) return `${what}: ${error.message}`;
  if (error.status === 401) return `${what}: the service refused the token (401 ${error.message}); check LOADPLANE_TOKEN or --token-file`;
  return `${what}: ${error.status} ${error.message}`;
}

interface Parsed {
  test: string;
  wait: boolean;
  junit: string | null;
  compare: string | null;
  config: string | null;
  machines: string[];
  pendingTimeout: number | null;
  server?: string;
  token?: string;
  tokenFile?: string;
}

function parse(argv: readonly string[]): Parsed | 'help' {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      options: {
        wait: { type: 'boolean' },
        junit: { type: 'string' },
        compare: { type: 'string' },
        config: { type: 'string' },
        machines: { type: 'string' },
        'pending-timeout': { type: 'string' },
        server: { type: 'string' },
        token: { type: 'string' },
        'token-file': { type: 'string' },
        help: { type: 'boolean', short: 'h' },
      },
      allowPositionals: true,
      strict: true,
    });
  } catch (error) {
    throw new UsageError((error as Error).message);
  }
  const { values, positionals } = parsed;
  if (values.help) return 'help';
  if (positionals.length === 0) throw new UsageError('which test? give its id or its exact name: loadplane run "checkout flow" --wait');
  if (positionals.length > 1) throw new UsageError(`one test at a time (got ${positionals.map((p) => `"${p}"`).join(', ')}); quote a name with spaces`);
  const test = positionals[0]!.trim();
  if (!test) throw new UsageError('the test id or name is empty');
  if (!values.wait && values.junit !== undefined) throw new UsageError('--junit needs --wait: the report is written once the run ended');
  if (!values.wait && values.compare !== undefined) throw new UsageError('--compare needs --wait: the changes are known once the run ended');
  if (values.junit !== undefined && !values.junit.trim()) throw new UsageError('--junit needs a file name');
  if (values.compare !== undefined && !values.compare.trim()) throw new UsageError('--compare takes "baseline" or a run id');
  let pendingTimeout: number | null = null;
  if (values['pending-timeout'] !== undefined) {
    pendingTimeout = Number(values['pending-timeout']);
    if (!Number.isInteger(pendingTimeout) || pendingTimeout < 1) throw new UsageError(`--pending-timeout takes a whole number of seconds, got "${values['pending-timeout']}"`);
  }
  const machines = (values.machines ?? '').split(',').map((m) => m.trim()).filter(Boolean);
  if (values.machines !== undefined && machines.length === 0) throw new UsageError('--machines takes machine ids or hostnames, comma-separated');
  return {
    test,
    wait: values.wait ?? false,
    junit: values.junit?.trim() ?? null,
    compare: values.compare?.trim() ?? null,
    config: values.config?.trim() || null,
    machines,
    pendingTimeout,
    ...(values.server !== undefined ? { server: values.server } : {}),
    ...(values.token !== undefined ? { token: values.token } : {}),
    ...(values['token-file'] !== undefined ? { tokenFile: values['token-file'] } : {}),
  };
}

/** GET /tasks/{id}/endpoints, or null with a note when the service has none to give. */
async function endpointsOf(client: RestClient, taskId: string, output: RunOutput): Promise<EndpointFigures[] | null> {
  try {
    return await client.get<EndpointFigures[]>(`/tasks/${encodeURIComponent(taskId)}/endpoints`);
  } catch (error) {
    if (!(error instanceof RestError)) throw error;
    output.err(`loadplane run: no per-endpoint figures: ${error.status ? `${error.status} ` : ''}${error.message}`);
    return null;
  }
}

async function printComparison(client: RestClient, taskId: string, against: string, output: RunOutput): Promise<void> {
  try {
    const comparison = await client.get<Comparison>(`/tasks/${encodeURIComponent(taskId)}/compare`, { with: against });
    output.out('');
    output.out(formatComparison(comparison, against));
  } catch (error) {
    if (!(error instanceof RestError)) throw error;
    // A JSON error of the service (`{error, message}`: no baseline, no such run) or no such route at all (an older service).
    const unsupported = error.status === 404 && /^HTTP 404/.test(error.message);
    const why = unsupported
      ? 'this service cannot compare runs (GET /tasks/{id}/compare answered 404); upgrade it'
      : error.status === 404 && against === 'baseline'
        ? `no baseline to compare with: ${error.message}`
        : describeRestError(error, 'the comparison failed');
    output.out('');
    output.out(`compare: ${why}`);
  }
}

/**
 * Runs the command; resolves with its exit code. `onStarted` hands the caller a way to cancel the run (the signal
 * handlers of `runRunCommand`).
 */
export async function runRun(
  argv: readonly string[],
  env: Record<string, string | undefined>,
  output: RunOutput,
  hooks: { onStarted?(cancel: () => Promise<void>, stopFollowing: () => void): void } = {},
): Promise<number> {
  const say = (text: string) => output.err(`loadplane run: ${text}`);
  let client: RestClient;
  let parsed: Parsed;
  try {
    const options = parse(argv);
    if (options === 'help') {
      output.out(runUsage);
      return 0;
    }
    parsed = options;
    const connection = resolveConnection({ server: parsed.server, token: parsed.token, tokenFile: parsed.tokenFile }, env);
    for (const warning of connection.warnings) say(warning);
    client = createRestClient({ address: serviceAddress(connection.server), token: connection.token, fetch: (request) => fetch(request), timeoutMs: 30_000 });
  } catch (error) {
    if (!(error instanceof UsageError)) throw error;
    output.err(`loadplane run: ${error.message}\n\n${runUsage}`);
    return 2;
  }

  let task: TaskRecord;
  let testName: string;
  try {
    const test = await resolveTest(client, parsed.test);
    testName = test.name;
    const configId = parsed.config === null ? null : await resolveConfig(client, parsed.config);
    const machineIds = parsed.machines.length ? await resolveMachines(client, parsed.machines) : [];
    const started = await client.send<{ id: string; public_id: string; pending_reason: string | null }>('POST', '/tasks', {
      testId: test.id,
      ...(configId ? { configId } : {}),
      ...(machineIds.length ? { machineIds } : {}),
      ...(parsed.pendingTimeout !== null ? { pendingTimeout: parsed.pendingTimeout } : {}),
    });
    const startedLine = `run ${started.id} (public id ${started.public_id}) of test "${test.name}" started`;
    if (!parsed.wait) {
      output.out(`${startedLine}: pending${started.pending_reason ? ` (${started.pending_reason})` : ''}`);
      output.out(runUrlOf(client, started));
      return 0;
    }
    say(`${startedLine}; following its log (${runUrlOf(client, started)})`);
    task = await follow(client, started.id, output, hooks);
  } catch (error) {
    if (error instanceof UsageError) {
      say(error.message);
      return 2;
    }
    if (error instanceof RestError) {
      say(error.status === 0 ? `${error.message} (is LOADPLANE_URL right?)` : describeRestError(error, 'the service refused'));
      return 2;
    }
    if (error instanceof FollowError) {
      say(`${error.message}; the run goes on in the service`);
      return 2;
    }
    if (error instanceof Exit) return error.code;
    throw error;
  }

  const runUrl = runUrlOf(client, task);
  try {
    const endpoints = await endpointsOf(client, task.id, output);
    output.out(formatReport({ task, testName, runUrl, endpoints }));
    if (parsed.compare !== null) await printComparison(client, task.id, parsed.compare, output);
  } catch (error) {
    if (!(error instanceof RestError)) throw error;
    say(describeRestError(error, 'reading the run'));
  }
  if (parsed.junit !== null) {
    const file = resolve(parsed.junit);
    try {
      await writeFile(file, junitReport({ task, testName, runUrl }));
      say(`JUnit report written to ${parsed.junit}`);
    } catch (error) {
      say(`cannot write the JUnit report to ${file}: ${(error as Error).message}`);
      return 2;
    }
  }
  return task.status === 'completed' && task.verdict !== 'failed' ? 0 : 1;
}

/** Follows the run's log to its end and reads its final record. */
async function follow(
  client: RestClient,
  taskId: string,
  output: RunOutput,
  hooks: { onStarted?(cancel: () => Promise<void>, stopFollowing: () => void): void },
): Promise<TaskRecord> {
  const stop = new AbortController();
  hooks.onStarted?.(async () => {
    stop.abort();
    await client.send('DELETE', `/tasks/${encodeURIComponent(taskId)}`);
  }, () => stop.abort());
  await followLog(client, taskId, {
    signal: stop.signal,
    onLine: (line) => output.err(line.text),
    onWaiting: (reason) => output.err(`loadplane run: waiting: ${reason}`),
    onReconnect: (reason, attempt) => output.err(`loadplane run: ${reason}; following again${attempt > 1 ? ` (attempt ${attempt})` : ''}`),
  });
  // Stopped by a signal: the handler decides the exit; nothing more to read.
  if (stop.signal.aborted) throw new Exit(130);
  return client.get<TaskRecord>(`/tasks/${encodeURIComponent(taskId)}`);
}

/** Writes `text` and a line end, resolving once the stream took it (so nothing is lost at exit). */
function writeLine(stream: NodeJS.WriteStream, text: string): Promise<void> {
  return new Promise((done) => stream.write(`${text}\n`, () => done()));
}

export async function runRunCommand(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  // The last write to each stream: awaited before exiting, so a pipe gets every line.
  const last = { out: Promise.resolve(), err: Promise.resolve() };
  const output: RunOutput = {
    out: (text) => void (last.out = writeLine(process.stdout, text)),
    err: (text) => void (last.err = writeLine(process.stderr, text)),
  };
  const exit = async (code: number) => {
    await Promise.all([last.out, last.err]);
    process.exit(code);
  };
  let interrupted = false;
  const code = await runRun(argv, env, output, {
    onStarted(cancel, stopFollowing) {
      const onSignal = (signal: NodeJS.Signals) => {
        const code = signal === 'SIGTERM' ? 143 : 130;
        if (interrupted) {
          output.err('loadplane run: interrupted again: exiting without waiting for the cancel');
          void exit(code);
          return;
        }
        interrupted = true;
        output.err(`loadplane run: ${signal}: cancelling the run`);
        stopFollowing();
        cancel().then(
          () => {
            output.err('loadplane run: the run was cancelled');
            void exit(code);
          },
          (error: unknown) => {
            output.err(`loadplane run: could not cancel the run: ${error instanceof Error ? error.message : String(error)}`);
            void exit(code);
          },
        );
      };
      process.on('SIGINT', onSignal);
      process.on('SIGTERM', onSignal);
    },
  });
  // Interrupted: the signal handler exits once the cancel is through.
  if (interrupted) return;
  await exit(code);
}

