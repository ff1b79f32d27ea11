/**
 * The contract every load-tool plugin passes: script validation, a deterministic command, a parser that starts empty,
 * exit-code outcomes, and a real run through runAssignment and the node process runner against a local HTTP target.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { createNodeProcessRunner } from '../../adapters/process/node-process-runner.ts';
import { type LogLine, runAssignment } from '../../core/agent/run-assignment.ts';
import type { Assignment, LoadConfig, LoadTool, MetricSnapshot } from '../../core/capabilities/load-tool.ts';
import { LatencyHistogram } from '../../core/domain/metrics/histogram.ts';
import { requireOrSkip } from '../helpers/k6-binary.ts';

export interface LoadToolContractFixtures {
  /** A script the tool accepts. */
  goodScript: string;
  /** Scripts the tool must refuse besides the empty one. */
  badScripts?: string[];
  realRun: {
    /** The script for a real run; `target` is the URL of a local HTTP server the suite starts (answers 200 "ok"). */
    script(target: string): string;
    config?: LoadConfig | null;
    /** Exactly how many requests the script makes: the summary must count these. */
    requests: number;
    /** Whether the script's requests go to the target (then the target must have seen exactly `requests`). */
    hitsTarget: boolean;
    /** Text some log line must contain. */
    logContains: string;
    /** Why the tool cannot run on this machine, or null. Skips the real run with a message; fails it when CI is set. */
    unavailable?: string | null;
  };
}

const assignmentFor = (tool: string, script: string, config: LoadConfig | null = null, machine = { index: 0, count: 1 }): Assignment => ({
  assignmentId: 'contract-assignment',
  taskId: 'contract-task',
  testId: 'contract-test',
  tool,
  script,
  config,
  machineIndex: machine.index,
  machineCount: machine.count,
});

export function describeLoadToolContract(name: string, makeTool: () => LoadTool, fixtures: LoadToolContractFixtures): void {
  describe(`load-tool contract: ${name}`, () => {
    test('has a tool id', () => {
      expect(makeTool().tool).toMatch(/^[a-z][a-z0-9-]*$/);
    });

    test('validateScript accepts a good script and refuses empty (and known bad) ones with a message', () => {
      const tool = makeTool();
      expect(tool.validateScript(fixtures.goodScript)).toBeNull();
      for (const bad of ['', '   \n\t', ...(fixtures.badScripts ?? [])]) {
        const message = tool.validateScript(bad);
        expect(typeof message).toBe('string');
        expect(message!.length).toBeGreaterThan(0);
      }
    });

    test('available() answers without throwing', async () => {
      const available = await makeTool().available();
      expect(typeof available.ok).toBe('boolean');
      if (!available.ok) expect(available.reason.length).toBeGreaterThan(0);
    });

    test('command() is a non-empty argv, the same for the same assignment', () => {
      const tool = makeTool();
      const configs: (LoadConfig | null)[] = [null, { vus: 5, duration: '30s' }, { stages: [{ duration: '10s', target: 7 }, { duration: '5s', target: 0 }] }];
      for (const config of configs) {
        for (const machine of [{ index: 0, count: 1 }, { index: 1, count: 3 }]) {
          const assignment = assignmentFor(tool.tool, fixtures.goodScript, config, machine);
          const command = tool.command(assignment);
          expect(command.argv.length).toBeGreaterThan(0);
          expect(command.argv.every((arg) => typeof arg === 'string')).toBe(true);
          expect(command.argv[0]!.length).toBeGreaterThan(0);
          for (const content of Object.values(command.files ?? {})) expect(typeof content).toBe('string');
          for (const value of Object.values(command.env ?? {})) expect(typeof value).toBe('string');
          expect(tool.command(assignment)).toEqual(command);
        }
      }
    });

    test('a fresh parser: no interval, an empty summary, plain lines logged', () => {
      const tool = makeTool();
      const parser = tool.createParser(assignmentFor(tool.tool, fixtures.goodScript));
      expect(parser.takeInterval(Date.now())).toBeNull();
      const summary = parser.summary();
      expect(summary.requests).toBe(0);
      expect(summary.errors).toBe(0);
      expect(LatencyHistogram.decode(summary.histogram).count).toBe(0);
      expect(summary.endedAt).toBeGreaterThanOrEqual(summary.startedAt);
      expect(parser.onOutput('out', 'hello from the contract')).toContain('hello from the contract');
      expect(parser.onOutput('err', 'an error line')).toContain('an error line');
    });

    test('outcome: exit 0 completed, anything else failed with a reason', () => {
      const tool = makeTool();
      const parser = tool.createParser(assignmentFor(tool.tool, fixtures.goodScript));
      expect(parser.outcome(0, null).status).toBe('completed');
      for (const [code, signal] of [[1, null], [null, 'SIGKILL']] as const) {
        const outcome = parser.outcome(code, signal);
        expect(outcome.status).toBe('failed');
        expect(outcome.reason?.length).toBeGreaterThan(0);
      }
    });

    describe('a real run', () => {
      let server: ReturnType<typeof Bun.serve> | null = null;
      let hits = 0;
      beforeAll(() => {
        server = Bun.serve({
          hostname: '127.0.0.1',
          port: 0,
          fetch() {
            hits++;
            return new Response('ok');
          },
        });
      });
      afterAll(() => server?.stop(true));

      test('runAssignment with the node runner: log lines, and a summary counting what the script did', async () => {
        if (!requireOrSkip(fixtures.realRun.unavailable ?? null, `the ${name} contract's real run`)) return;
        const tool = makeTool();
        const target = `http://127.0.0.1:${server!.port}`;
        const logs: LogLine[] = [];
        const intervals: MetricSnapshot[] = [];
        const result = await runAssignment({
          tool,
          assignment: assignmentFor(tool.tool, fixtures.realRun.script(target), fixtures.realRun.config ?? null),
          runner: createNodeProcessRunner(),
          baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' },
          metricsIntervalMs: 200,
          onLog: (line) => logs.push(line),
          onMetrics: (snapshot) => intervals.push(snapshot),
        });
        const transcript = logs.map((l) => `${l.source}| ${l.text}`).join('\n');
        expect(result.startError, transcript).toBeUndefined();
        expect(result.outcome, transcript).toEqual({ status: 'completed' });
        expect(result.exitCode).toBe(0);
        expect(logs.length).toBeGreaterThan(0);
        expect(transcript).toContain(fixtures.realRun.logContains);
        expect(result.summary.requests).toBe(fixtures.realRun.requests);
        expect(LatencyHistogram.decode(result.summary.histogram).count).toBe(fixtures.realRun.requests);
        if (fixtures.realRun.hitsTarget) expect(hits).toBe(fixtures.realRun.requests);
        expect(intervals.reduce((sum, s) => sum + s.requests, 0)).toBe(fixtures.realRun.requests);
      }, 60_000);
    });
  });
}
