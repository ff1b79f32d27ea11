/**
 * The real Gatling through runAssignment and the node process runner: no simulation.log unless the simulation has
 * assertions, failed assertions and compile errors named in the outcome, a vus/duration config applied through
 * Loadplane.closedInjection (Java) and stages through its Scala twin, and counts that agree with the target's own.
 */
import { afterAll, beforeAll, beforeEach, describe, expect, test } from 'bun:test';
import { type LoadConfig, LatencyHistogram } from 'loadplane/plugin';
import { createNodeProcessRunner, type LogLine, locateEngineOnHost, requireOrSkip, runAssignment } from 'loadplane/plugin/testing';
import { gatlingEngine } from '../../plugins/load-tool-gatling/engine.ts';
import { createGatlingTool } from '../../plugins/load-tool-gatling/gatling-tool.ts';

const gatling = await locateEngineOnHost(gatlingEngine, { env: process.env });
const tool = createGatlingTool({ launcher: gatling.path });
const ready = (what: string) => requireOrSkip(gatling.found ? null : gatling.reason, what);

let served = 0;
let server: ReturnType<typeof Bun.serve>;
beforeAll(() => {
  server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch() {
      served++;
      await Bun.sleep(5);
      return new Response('ok');
    },
  });
});
afterAll(() => server.stop(true));
beforeEach(() => {
  served = 0;
});

/** A simulation; after the run it says whether Gatling created its results directory (where simulation.log goes). */
const simulation = (setUp: string, scenario = 'exec(http("get").get("/"))') => `
import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;

import io.gatling.javaapi.core.*;
import io.gatling.javaapi.http.*;
import loadplane.gatling.Loadplane;

public class EngineSimulation extends Simulation {
  HttpProtocolBuilder protocol = http.baseUrl("http://127.0.0.1:${server.port}");
  ScenarioBuilder scn = scenario("engine").${scenario};

  {
    ${setUp}
  }

  @Override
  public void after() {
    System.out.println("simulation.log written: " + java.nio.file.Files.exists(java.nio.file.Paths.get("results")));
  }
}
`;

async function run(script: string, config: LoadConfig | null = null) {
  const logs: LogLine[] = [];
  const result = await runAssignment({
    tool,
    assignment: { assignmentId: 'g', taskId: 'gatling-engine', testId: 'g', tool: 'gatling', script, config, machineIndex: 0, machineCount: 1 },
    runner: createNodeProcessRunner(),
    baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' },
    metricsIntervalMs: 500,
    onLog: (line) => logs.push(line),
    onMetrics: () => {},
  });
  return { result, transcript: logs.map((l) => `${l.source}| ${l.text}`).join('\n') };
}

describe('Gatling alone through runAssignment', () => {
  test('no config: the simulation\'s own injection, exact counts, and no simulation.log', async () => {
    if (!ready('the Gatling engine tests')) return;
    const { result, transcript } = await run(simulation('setUp(scn.injectOpen(atOnceUsers(3))).protocols(protocol);', 'repeat(4).on(exec(http("get").get("/")))'));
    expect(result.outcome, transcript).toEqual({ status: 'completed' });
    expect(served).toBe(12);
    expect(result.summary.requests).toBe(12);
    expect(result.summary.errors).toBe(0);
    const histogram = LatencyHistogram.decode(result.summary.histogram);
    expect(histogram.count).toBe(12);
    expect(histogram.percentile(50)).toBeGreaterThanOrEqual(5);
    expect(transcript).toContain('simulation.log written: false');
    // Metrics lines stay out of the log; Gatling's own console summary is in it.
    expect(transcript).not.toContain('@loadplane-metrics');
    expect(transcript).toContain('> Global');
  }, 60_000);

  test('a vus/duration config reaches the simulation through Loadplane.closedInjection', async () => {
    if (!ready('the Gatling config test')) return;
    const { result, transcript } = await run(simulation('setUp(scn.injectClosed(Loadplane.closedInjection(constantConcurrentUsers(1).during(60)))).protocols(protocol);'), {
      vus: 2,
      duration: '2s',
    });
    expect(result.outcome, transcript).toEqual({ status: 'completed' });
    // 2 users back to back for 2 s against a 5 ms target: far more than one user's worth, far fewer than a minute's.
    expect(served).toBeGreaterThan(50);
    expect(result.summary.requests).toBe(served);
    // The config's 2 s, not the script's 60: a bound half-way between holds however slow the machine is.
    expect(result.summary.endedAt - result.summary.startedAt).toBeLessThan(30_000);
    expect(transcript).not.toContain('load config was not applied');
  }, 60_000);

  test('failed assertions: failed, naming the assertion; the simulation.log exists for them', async () => {
    if (!ready('the Gatling assertions test')) return;
    const { result, transcript } = await run(
      simulation('setUp(scn.injectOpen(atOnceUsers(2))).protocols(protocol).assertions(global().responseTime().max().lt(1), global().failedRequests().count().is(0L));'),
    );
    expect(result.exitCode, transcript).toBe(2);
    expect(result.outcome.status).toBe('failed');
    expect(result.outcome.reason).toMatch(/^assertions failed: Global: max of response time is less than 1(\.0)? : false \(actual : [\d.]+\) \(exit code 2\)$/);
    expect(result.summary.requests).toBe(2);
    expect(transcript).toContain('simulation.log written: true');
  }, 60_000);

  test('a Scala simulation: compiled with scalac, the config applied through the Scala helper', async () => {
    if (!ready('the Gatling Scala test')) return;
    const scala = `
package acme

import scala.concurrent.duration._

import io.gatling.core.Predef._
import io.gatling.http.Predef._
import loadplane.gatling.scaladsl.Loadplane

class ScalaSimulation extends Simulation {
  val protocol = http.baseUrl("http://127.0.0.1:${server.port}")
  val scn = scenario("scala").exec(http("get").get("/"))

  setUp(scn.inject(Loadplane.closedInjection(constantConcurrentUsers(1).during(1.second)))).protocols(protocol)
}
`;
    const { result, transcript } = await run(scala, { stages: [{ duration: '1s', target: 2 }, { duration: '2s', target: 2 }] });
    expect(result.outcome, transcript).toEqual({ status: 'completed' });
    expect(transcript).toContain('compiling 1 Scala simulation source(s)');
    expect(served).toBeGreaterThan(10);
    expect(result.summary.requests).toBe(served);
    expect(LatencyHistogram.decode(result.summary.histogram).count).toBe(served);
  }, 120_000);

  test('a simulation that does not compile: failed with javac\'s first error', async () => {
    if (!ready('the Gatling compile-error test')) return;
    const { result, transcript } = await run(simulation('setUp(scn.injectOpen(atOnceUsers(1))).protocols(undefinedProtocol);'));
    expect(result.exitCode, transcript).toBe(3);
    expect(result.outcome.reason).toMatch(/^the simulation does not compile: .*EngineSimulation\.java:\d+: error: cannot find symbol \(exit code 3\)$/);
    expect(served).toBe(0);
  }, 60_000);
});
