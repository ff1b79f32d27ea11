/** Unit tests of the Gatling tool: script checks, the command for an assignment, the metrics lines, exit codes. */
import { describe, expect, test } from 'bun:test';
import { type Assignment, engineLocatorPort, LatencyHistogram, type LoadConfig, loadToolCapability, type LocatedEngine, silentLogger } from 'loadplane/plugin';
import { createKernel } from 'loadplane/plugin/testing';
import { gatlingCommand, gatlingConf } from './gatling-command.ts';
import { gatlingOutcome } from './gatling-exit-codes.ts';
import { createGatlingParser, metricsPrefix } from './gatling-output-parser.ts';
import { parseGatlingScript, validateGatlingScript } from './gatling-script.ts';
import { createGatlingTool } from './gatling-tool.ts';
import gatlingPlugin from './index.ts';

const simulation = (body = 'setUp(scn.injectOpen(atOnceUsers(1))).protocols(http);', header = '') => `${header}
import static io.gatling.javaapi.core.CoreDsl.*;
import io.gatling.javaapi.core.*;

public class BasicSimulation extends Simulation {
  ScenarioBuilder scn = scenario("s");
  {
    ${body}
  }
}
`;

function assignment(config: LoadConfig | null, machine = { index: 0, count: 1 }, script = simulation()): Assignment {
  return { assignmentId: 'a1', taskId: 't1', testId: 'x1', tool: 'gatling', script, config, machineIndex: machine.index, machineCount: machine.count };
}

describe('scripts', () => {
  test('a Java simulation: its class, package and assertions', () => {
    expect(parseGatlingScript(simulation())).toEqual({ language: 'java', className: 'BasicSimulation', qualifiedName: 'BasicSimulation', hasAssertions: false });
    expect(parseGatlingScript(simulation(undefined, 'package acme.load;'))).toMatchObject({ className: 'BasicSimulation', qualifiedName: 'acme.load.BasicSimulation' });
    expect(parseGatlingScript(simulation('setUp(scn.injectOpen(atOnceUsers(1))).assertions(global().failedRequests().count().is(0L));'))).toMatchObject({ hasAssertions: true });
    // The fully qualified superclass works too.
    expect(validateGatlingScript('public class A extends io.gatling.javaapi.core.Simulation { { setUp(); } }')).toBeNull();
  });

  test('refusals say what is wrong', () => {
    expect(validateGatlingScript('')).toBe('script must not be empty');
    expect(validateGatlingScript('a\0b')).toMatch(/NUL byte/);
    expect(validateGatlingScript('import io.gatling.javaapi.core.*;\nclass A {}')).toMatch(/must declare a class extending Simulation/);
    expect(validateGatlingScript(simulation('// setUp(scn.injectOpen(atOnceUsers(1)));'))).toMatch(/BasicSimulation must call setUp\(\.\.\.\)/);
    // A class in a comment does not count.
    expect(validateGatlingScript('/* public class X extends Simulation { { setUp(); } } */')).toMatch(/must declare/);
    expect(validateGatlingScript('public class A extends Simulation { { setUp(); } }')).toMatch(/one of Gatling's DSLs: Java \(import io\.gatling\.javaapi\.core\.\*\) or Scala/);
    expect(validateGatlingScript('import io.gatling.core.Predef._\nclass S extends Simulation {\n  val scn = scenario("s")\n}\n')).toMatch(/S must call setUp/);
  });

  test('a Scala simulation: its class and package', () => {
    const scala = 'package acme\n\nimport io.gatling.core.Predef._\nimport io.gatling.http.Predef._\n\nclass S extends Simulation {\n  val scn = scenario("s")\n  setUp(scn.inject(atOnceUsers(1)))\n}\n';
    expect(parseGatlingScript(scala)).toEqual({ language: 'scala', className: 'S', qualifiedName: 'acme.S', hasAssertions: false });
    const command = gatlingCommand(assignment(null, undefined, scala), 'gatling');
    expect(Object.keys(command.files!).sort()).toEqual(['S.scala', 'gatling.conf']);
    expect(command.argv).toContain('acme.S');
  });
});

describe('command', () => {
  test('no config: the simulation\'s own injection; the source under its class name, a gatling.conf without the file writer', () => {
    const command = gatlingCommand(assignment(null), '/opt/gatling/bin/gatling');
    expect(command.argv).toEqual([
      '/opt/gatling/bin/gatling',
      '-Dloadplane.taskId=t1',
      '-Dloadplane.machineIndex=0',
      '-Dloadplane.machineCount=1',
      '.',
      '-s',
      'BasicSimulation',
      '-rf',
      'results',
      '-nr',
    ]);
    expect(Object.keys(command.files!).sort()).toEqual(['BasicSimulation.java', 'gatling.conf']);
    expect(command.files!['gatling.conf']).toContain('data.writers = [console]');
    expect(command.files!['gatling.conf']).toContain('warmUpUrl = ""');
    expect(command.env).toEqual({ LOADPLANE_TASK_ID: 't1', LOADPLANE_MACHINE_INDEX: '0', LOADPLANE_MACHINE_COUNT: '1' });
    expect(command.sampleFile).toBeUndefined();
  });

  test('vus and duration: this machine\'s share as system properties, durations in ms', () => {
    const argv = gatlingCommand(assignment({ vus: 10, duration: '1m30s' }, { index: 1, count: 3 }), 'gatling').argv;
    expect(argv).toContain('-Dloadplane.vus=3');
    expect(argv).toContain('-Dloadplane.durationMs=90000');
    expect(argv).toContain('-Dloadplane.machineIndex=1');
    expect(argv).toContain('-Dloadplane.machineCount=3');
    expect(argv.some((arg) => arg.startsWith('-Dloadplane.stages'))).toBe(false);
  });

  test('stages: duration:target pairs of this machine\'s share', () => {
    const config = { stages: [{ duration: '10s', target: 8 }, { duration: '1m', target: 8 }, { duration: '5s', target: 0 }] };
    expect(gatlingCommand(assignment(config), 'gatling').argv).toContain('-Dloadplane.stages=10000:8,60000:8,5000:0');
    expect(gatlingCommand(assignment(config, { index: 0, count: 2 }), 'gatling').argv).toContain('-Dloadplane.stages=10000:4,60000:4,5000:0');
  });

  test('an idle share (fewer users than machines) starts no simulation', () => {
    expect(gatlingCommand(assignment({ vus: 1, duration: '10s' }, { index: 1, count: 2 }), 'gatling').argv).toEqual(['gatling', '--idle']);
  });

  test('assertions keep Gatling\'s simulation.log, which it checks them from', () => {
    const script = simulation('setUp(scn.injectOpen(atOnceUsers(1))).assertions(global().successfulRequests().percent().gt(99.0));', 'package p;');
    const command = gatlingCommand(assignment(null, undefined, script), 'gatling');
    expect(command.files!['gatling.conf']).toContain('data.writers = [console, file]');
    expect(command.argv).toContain('p.BasicSimulation');
    expect(gatlingConf(false)).not.toContain('file');
  });
});

describe('parser', () => {
  const line = (from: number, to: number, ok: Record<string, number>, ko: Record<string, number> = {}) => `${metricsPrefix}${JSON.stringify({ from, to, ok, ko })}`;

  test('metrics lines: exact counts per millisecond into the histogram, kept out of the log', () => {
    const parser = createGatlingParser();
    expect(parser.onOutput('out', line(1_000, 1_900, { '12': 3, '40': 1 }, { '7': 2 }))).toBeNull();
    const interval = parser.takeInterval(2_000)!;
    expect(interval.requests).toBe(6);
    expect(interval.errors).toBe(2);
    expect(interval.startedAt).toBe(1_000);
    expect(interval.endedAt).toBe(1_900);
    const histogram = LatencyHistogram.decode(interval.histogram);
    expect(histogram.count).toBe(6);
    expect(histogram.max).toBeCloseTo(40, 1);
    expect(histogram.percentile(50)).toBeCloseTo(12, 1);
    expect(parser.takeInterval(2_100)).toBeNull();
    parser.onOutput('out', line(2_000, 3_500, { '20': 4 }));
    const summary = parser.summary();
    expect(summary.requests).toBe(10);
    expect(summary.errors).toBe(2);
    // The load's window: first request's start to last response's end.
    expect(summary.startedAt).toBe(1_000);
    expect(summary.endedAt).toBe(3_500);
    expect(LatencyHistogram.decode(summary.histogram).count).toBe(10);
  });

  test('a malformed metrics line is logged, not counted; other lines pass as they are', () => {
    const parser = createGatlingParser();
    expect(parser.onOutput('out', `${metricsPrefix}{"from":`)).toBe(`${metricsPrefix}{"from":`);
    expect(parser.onOutput('out', 'Simulation BasicSimulation started...')).toBe('Simulation BasicSimulation started...');
    expect(parser.onOutput('out', '> Global                          |       684 |       684 |         0')).toContain('684');
    expect(parser.summary().requests).toBe(0);
    expect(parser.takeInterval(Date.now())).toBeNull();
  });

  test('outcomes: assertions, compile errors and crashes named from the output', () => {
    const parser = createGatlingParser();
    expect(parser.outcome(0, null)).toEqual({ status: 'completed' });
    expect(parser.outcome(2, null)).toEqual({ status: 'failed', reason: 'assertions failed (exit code 2)' });
    parser.onOutput('out', 'Global: max of response time is less than 5 : false (actual : 31)');
    parser.onOutput('out', 'Global: count of failed events is 0 : true (actual : 0)');
    expect(parser.outcome(2, null)).toEqual({ status: 'failed', reason: 'assertions failed: Global: max of response time is less than 5 : false (actual : 31) (exit code 2)' });
    parser.onOutput('err', './BasicSimulation.java:9: error: cannot find symbol');
    parser.onOutput('err', './BasicSimulation.java:12: error: another');
    expect(createGatlingParser().outcome(3, null)).toEqual({ status: 'failed', reason: 'the simulation does not compile (exit code 3)' });
    const scala = createGatlingParser();
    scala.onOutput('err', './S.scala:8: error: not found: value htt');
    expect(scala.outcome(3, null).reason).toBe('the simulation does not compile: ./S.scala:8: error: not found: value htt (exit code 3)');
    expect(parser.outcome(3, null)).toEqual({ status: 'failed', reason: 'the simulation does not compile: ./BasicSimulation.java:9: error: cannot find symbol (exit code 3)' });
    parser.onOutput('err', 'loadplane: Gatling run crashed: java.lang.IllegalArgumentException: Simulation class Nope is not a Simulation');
    expect(parser.outcome(1, null)).toEqual({
      status: 'failed',
      reason: 'Gatling failed: java.lang.IllegalArgumentException: Simulation class Nope is not a Simulation (exit code 1)',
    });
    expect(parser.outcome(143, null)).toEqual({ status: 'failed', reason: 'stopped by SIGTERM (exit code 143)' });
    expect(parser.outcome(null, 'SIGKILL')).toEqual({ status: 'failed', reason: 'killed by SIGKILL' });
    expect(gatlingOutcome(7, null, { failedAssertions: [] })).toEqual({ status: 'failed', reason: 'exit code 7' });
  });
});

describe('tool', () => {
  test('available() reports the located launcher, or why it is missing', async () => {
    const found = await pluginTool({ found: true, name: 'Gatling', path: '/c/gatling', version: '3.13.5', source: 'cache' });
    expect(await found.available()).toEqual({ ok: true, version: '3.13.5' });
    expect(found.command(assignment(null)).argv[0]).toBe('/c/gatling');
    const missing = await pluginTool({ found: false, name: 'Gatling', path: 'gatling', reason: 'Gatling not found (...)', install: 'bash scripts/install-engines gatling' });
    expect(await missing.available()).toEqual({ ok: false, reason: 'Gatling not found (...)' });
    expect(missing.tool).toBe('gatling');
  });

  test('a configured launcher is run as it is, trusted, its version unknown', async () => {
    const missing: LocatedEngine = { found: false, name: 'Gatling', path: 'gatling', reason: 'Gatling not found (...)', install: null };
    const tool = await pluginTool(missing, '/opt/launcher');
    expect(await tool.available()).toEqual({ ok: true });
    expect(tool.command(assignment(null)).argv[0]).toBe('/opt/launcher');
    expect(await createGatlingTool().available()).toEqual({ ok: true });
  });
});

/** The plugin's tool on a host whose locator answers `engine`. */
async function pluginTool(engine: LocatedEngine, launcher?: string) {
  const kernel = await createKernel({
    plugins: [gatlingPlugin],
    logger: silentLogger,
    pluginConfig: launcher ? { 'load-tool-gatling': { launcher } } : {},
    provided: [[engineLocatorPort, { locate: async () => engine }]],
  });
  const tool = kernel.getAll(loadToolCapability)[0]!;
  await kernel.stop();
  return tool;
}
