/**
 * Gatling's leg of the engine-overhead benchmark: a Java simulation whose users request the target back to back, run
 * through the agent (Loadplane's launcher, latencies counted in the JVM) and alone (javac, then Gatling's own main,
 * io.gatling.app.Gatling, with its default data writers: console and simulation.log), on the jars
 * `scripts/install-engines gatling` cached. Both read the same -Dloadplane.* properties for users and duration.
 */
import { homedir } from 'node:os';
import { join } from 'node:path';
import { gatlingVersion } from '../../plugins/load-tool-gatling/engine.ts';
import type { EngineLeg } from './leg.ts';

/** Where scripts/install-engines gatling put the jars (lib/) and the Loadplane helper classes (launcher/). */
const gatlingHome = () => process.env.GATLING_HOME ?? join(homedir(), '.cache', 'loadplane', 'gatling', gatlingVersion);

/** The JVM flags of Gatling's own bundle launcher, as bin/gatling passes them. */
const jvmFlags = '-server -XX:+UseG1GC -XX:+ParallelRefProcEnabled -XX:MaxInlineLevel=20 -XX:MaxTrivialSize=12 --add-opens=java.base/java.lang=ALL-UNNAMED';

export const leg: EngineLeg = {
  tool: 'gatling',
  processName: 'java',
  scriptFile: 'BenchSimulation.java',
  script: (targetUrl) => `
import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;

import io.gatling.javaapi.core.*;
import io.gatling.javaapi.http.*;
import loadplane.gatling.Loadplane;

public class BenchSimulation extends Simulation {
  HttpProtocolBuilder protocol = http.baseUrl("${targetUrl}");
  // Each user requests / and ends; the closed model starts another at once, so every user runs back to back.
  ScenarioBuilder scenario = scenario("bench").exec(http("root").get("/"));

  {
    setUp(scenario.injectClosed(Loadplane.closedInjection(constantConcurrentUsers(1).during(10)))).protocols(protocol);
  }
}
`,
  aloneCommand({ workDir, vus, durationS }) {
    const home = gatlingHome();
    const classpath = `.:${home}/launcher:${home}/lib/*`;
    // What a user of the jars types: compile, then Gatling's main. The warm-up request to gatling.io and the usage
    // analytics are off, as under the agent: they only wait for a network a benchmark machine does not have.
    const properties = `-Dloadplane.vus=${vus} -Dloadplane.durationMs=${durationS * 1000} -Dgatling.http.warmUpUrl= -Dgatling.data.enableAnalytics=false`;
    const line = [
      `cd '${workDir}'`,
      `javac -nowarn -cp '${classpath}' -d . BenchSimulation.java`,
      `exec java ${jvmFlags} ${properties} -cp '${classpath}' io.gatling.app.Gatling -s BenchSimulation -rf results -nr`,
    ].join(' && ');
    return { argv: ['sh', '-c', line] };
  },
};
