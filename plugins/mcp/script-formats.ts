/**
 * MCP resources, one per load tool: what its script looks like and how a load configuration applies, with a short
 * example the tool plugin accepts (tests/integration/mcp-tools.test.ts checks each with validate_test), so a model
 * writes valid tests. The examples follow docs/load-tools.md and the plugins' READMEs.
 */

export interface ScriptFormat {
  tool: string;
  uri: string;
  title: string;
  /** Markdown: the format in a few lines, then the example in one fenced block. */
  text: string;
  /** The example alone. */
  example: string;
}

const format = (tool: string, title: string, about: string, fence: string, example: string): ScriptFormat => ({
  tool,
  uri: `loadplane://script-formats/${tool}`,
  title,
  text: `# ${title}\n\n${about}\n\n\`\`\`${fence}\n${example}\`\`\`\n`,
  example,
});

export const scriptFormats: readonly ScriptFormat[] = [
  format(
    'http',
    'http: native HTTP steps (no code)',
    'YAML or JSON `{base_url?, defaults?: {headers}, steps: [{name?, method, url, headers?, body?, expect?: {status?, body_contains?}}]}`, ' +
      '1 to 100 steps. Each virtual user runs the steps in order, again and again; a response failing `expect` (default: any status below ' +
      '400) counts as an error of its step. A relative url joins base_url. Runs on every agent. Without a load configuration one VU runs the ' +
      'steps once. write_test with `steps` writes this script for you.',
    'yaml',
    `base_url: https://shop.example.com/api
defaults:
  headers: {accept: application/json}
steps:
  - name: list products
    method: GET
    url: /products?page=1
    expect: {status: 200}
  - name: create order
    method: POST
    url: /orders
    body: {product: 7, quantity: 1}
    expect: {status: [200, 201], body_contains: '"id"'}
`,
  ),
  format(
    'k6',
    'k6: a JavaScript module',
    'A k6 script (ES module) with a default function run by each VU. `options` in the script apply when the run has no load ' +
      'configuration; a configuration (vus + duration, or stages) replaces them. Checks and thresholds work as in k6.',
    'js',
    `import http from 'k6/http';
import { check } from 'k6';

export const options = { vus: 2, duration: '10s' };

export default function () {
  const res = http.get('https://shop.example.com/api/products');
  check(res, { 'status is 200': (r) => r.status === 200 });
}
`,
  ),
  format(
    'locust',
    'locust: a Python locustfile',
    'A locustfile with at least one HttpUser (or User) class and its tasks; `host` names the target. A load configuration sets the ' +
      'users and the run time (stages become a load shape); without one the locustfile decides.',
    'python',
    `from locust import HttpUser, constant, task


class Visitor(HttpUser):
    host = "https://shop.example.com"
    wait_time = constant(0.1)

    @task
    def products(self):
        self.client.get("/api/products")
`,
  ),
  format(
    'artillery',
    'artillery: Artillery YAML (or JSON)',
    'An Artillery script with `config.target` and `scenarios` (no processor or payload files: a test is one file). A load configuration ' +
      "replaces the phases: its VUs become arrivals per second, its stages ramping phases. `ensure` checks end a run failed when they fail.",
    'yaml',
    `config:
  target: https://shop.example.com
  phases:
    - duration: 10
      arrivalRate: 2
scenarios:
  - flow:
      - get:
          url: /api/products
`,
  ),
  format(
    'jmeter',
    'jmeter: a .jmx test plan (XML)',
    'A JMeter test plan as JMeter saves it: a `<jmeterTestPlan>` with an enabled thread group and samplers. A load configuration is ' +
      "written into every enabled thread group (this machine's share of the VUs, the duration; stages as one-second steps).",
    'xml',
    `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
  <hashTree>
    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="products"/>
    <hashTree>
      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="users">
        <stringProp name="ThreadGroup.num_threads">2</stringProp>
        <stringProp name="ThreadGroup.ramp_time">0</stringProp>
        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController">
          <stringProp name="LoopController.loops">50</stringProp>
        </elementProp>
      </ThreadGroup>
      <hashTree>
        <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="products">
          <stringProp name="HTTPSampler.path">https://shop.example.com/api/products</stringProp>
          <stringProp name="HTTPSampler.method">GET</stringProp>
        </HTTPSamplerProxy>
        <hashTree/>
      </hashTree>
    </hashTree>
  </hashTree>
</jmeterTestPlan>
`,
  ),
  format(
    'gatling',
    'gatling: a Java simulation class',
    'One public class extending Simulation (Java; Scala where the agent compiles it). `Loadplane.closedInjection(fallback)` applies the ' +
      "run's load configuration as Gatling's closed model (concurrent users), or the fallback steps without one.",
    'java',
    `import static io.gatling.javaapi.core.CoreDsl.*;
import static io.gatling.javaapi.http.HttpDsl.*;

import io.gatling.javaapi.core.*;
import io.gatling.javaapi.http.*;
import loadplane.gatling.Loadplane;

public class ShopSimulation extends Simulation {
  HttpProtocolBuilder protocol = http.baseUrl("https://shop.example.com");
  ScenarioBuilder browse = scenario("browse").exec(http("products").get("/api/products"));

  {
    setUp(browse.injectClosed(Loadplane.closedInjection(constantConcurrentUsers(1).during(30)))).protocols(protocol);
  }
}
`,
  ),
  format(
    'custom',
    'custom: any executable script',
    'Runs on the agent as an executable (its shebang, else sh). Each output line is a log line; a stdout line `loadplane:sample ' +
      '<latency_ms> [ok|error]` records one request instead. Exit 0 is completed, anything else failed. A load configuration arrives as ' +
      'LOADPLANE_VUS, LOADPLANE_DURATION_SECONDS and LOADPLANE_STAGES in the environment.',
    'sh',
    `#!/bin/sh
# 20 requests with curl, each reported to Loadplane
i=0
while [ "$i" -lt 20 ]; do
  set -- $(curl -s -o /dev/null -w '%{http_code} %{time_total}' https://shop.example.com/api/products)
  status=ok
  if [ "$1" = 000 ] || [ "$1" -ge 400 ]; then status=error; fi
  echo "loadplane:sample $(echo "$2" | awk '{print $1 * 1000}') $status"
  i=$((i + 1))
done
`,
  ),
];
