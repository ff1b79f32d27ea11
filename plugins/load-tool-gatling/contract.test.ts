/** The Gatling tool passes the load-tool contract; the real run needs the launcher (skipped without it, required in CI). */
import { describeLoadToolContract, locateEngineOnHost } from 'loadplane/plugin/testing';
import { gatlingEngine } from './engine.ts';
import { createGatlingTool } from './gatling-tool.ts';

// Found as an agent finds it: GATLING_BIN, PATH, ~/.cache/loadplane/gatling/<version>/bin/gatling.
const gatling = await locateEngineOnHost(gatlingEngine, { env: process.env });

const simulation = (target: string) => `
import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;

import io.gatling.javaapi.core.*;
import io.gatling.javaapi.http.*;

public class ContractSimulation extends Simulation {
  HttpProtocolBuilder protocol = http.baseUrl("${target}");
  ScenarioBuilder scenario = scenario("contract").repeat(5).on(exec(http("contract").get("/contract")));

  {
    setUp(scenario.injectOpen(atOnceUsers(2))).protocols(protocol);
  }

  @Override
  public void after() {
    System.out.println("contract run done");
  }
}
`;

describeLoadToolContract('gatling', () => createGatlingTool({ launcher: gatling.path }), {
  goodScript: simulation('http://127.0.0.1:1'),
  badScripts: [
    'echo hello',
    // No Simulation subclass.
    'import io.gatling.javaapi.core.*;\npublic class Nothing {}\n',
    // A simulation that never calls setUp.
    'import io.gatling.javaapi.core.*;\npublic class Idle extends Simulation {}\n',
    // A class extending Simulation without either of Gatling's DSLs.
    'public class Plain extends Simulation { { setUp(); } }\n',
  ],
  realRun: {
    // 2 users, 5 requests each: exactly 10 requests.
    script: simulation,
    requests: 10,
    hitsTarget: true,
    logContains: 'contract run done',
    unavailable: gatling.found ? null : gatling.reason,
  },
});
