/** A small working script per tool, aimed at this service's own /healthz, offered when a new test is started. */

export const BUILT_IN_TOOLS = ['http', 'k6', 'jmeter', 'locust', 'artillery', 'gatling', 'custom'] as const;

export const TOOL_DESCRIPTIONS: Record<string, string> = {
  http: 'Built-in HTTP steps in YAML: runs on every agent, nothing to install.',
  k6: 'A k6 JavaScript test.',
  jmeter: 'A JMeter .jmx test plan (XML).',
  locust: 'A Locust locustfile (Python).',
  artillery: 'An Artillery script (YAML or JSON).',
  gatling: 'A Gatling simulation class in Java.',
  custom: 'Any executable script (its shebang, else sh); each output line is a log line.',
};

export function exampleScript(tool: string, origin: string): string {
  const host = new URL(origin).host;
  switch (tool) {
    case 'http':
      return [
        '# Built-in http tool: each virtual user runs these steps in order, again and again.',
        '# Without a load configuration the steps run once with one virtual user.',
        `base_url: ${origin}`,
        'defaults:',
        '  headers:',
        '    accept: application/json',
        'steps:',
        '  - name: health',
        '    method: GET',
        '    url: /healthz',
        '    expect:',
        '      status: 200',
        '      body_contains: ok',
        '',
      ].join('\n');
    case 'k6':
      return [
        "import http from 'k6/http';",
        "import { check } from 'k6';",
        '',
        '// A load configuration replaces these; without one they decide.',
        "export const options = { vus: 2, duration: '10s' };",
        '',
        'export default function () {',
        `  const res = http.get('${origin}/healthz');`,
        "  check(res, { 'status is 200': (r) => r.status === 200 });",
        '}',
        '',
      ].join('\n');
    case 'locust':
      return [
        'from locust import HttpUser, constant, task',
        '',
        '',
        'class Visitor(HttpUser):',
        `    host = "${origin}"`,
        '    wait_time = constant(0.1)',
        '',
        '    @task',
        '    def health(self):',
        '        self.client.get("/healthz")',
        '',
      ].join('\n');
    case 'artillery':
      return [
        'config:',
        `  target: ${origin}`,
        '  phases:                 # a load configuration replaces them',
        '    - duration: 10',
        '      arrivalRate: 2',
        'scenarios:',
        '  - flow:',
        '      - get:',
        '          url: /healthz',
        '',
      ].join('\n');
    case 'jmeter':
      return [
        '<?xml version="1.0" encoding="UTF-8"?>',
        '<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">',
        '  <hashTree>',
        '    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="health"/>',
        '    <hashTree>',
        '      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="users">',
        '        <stringProp name="ThreadGroup.num_threads">2</stringProp>',
        '        <stringProp name="ThreadGroup.ramp_time">0</stringProp>',
        '        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController">',
        '          <stringProp name="LoopController.loops">50</stringProp>',
        '        </elementProp>',
        '      </ThreadGroup>',
        '      <hashTree>',
        '        <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="health">',
        `          <stringProp name="HTTPSampler.path">${origin}/healthz</stringProp>`,
        '          <stringProp name="HTTPSampler.method">GET</stringProp>',
        '        </HTTPSamplerProxy>',
        '        <hashTree/>',
        '      </hashTree>',
        '    </hashTree>',
        '  </hashTree>',
        '</jmeterTestPlan>',
        '',
      ].join('\n');
    case 'gatling':
      return [
        'import static io.gatling.javaapi.core.CoreDsl.*;',
        'import static io.gatling.javaapi.http.HttpDsl.*;',
        '',
        'import io.gatling.javaapi.core.*;',
        'import io.gatling.javaapi.http.*;',
        'import loadplane.gatling.Loadplane;',
        '',
        'public class HealthSimulation extends Simulation {',
        `  HttpProtocolBuilder protocol = http.baseUrl("${origin}");`,
        '  ScenarioBuilder check = scenario("health").exec(http("health").get("/healthz"));',
        '',
        '  {',
        "    // The run's load configuration; without one, 1 user for 10 s.",
        '    setUp(check.injectClosed(Loadplane.closedInjection(constantConcurrentUsers(1).during(10)))).protocols(protocol);',
        '  }',
        '}',
        '',
      ].join('\n');
    case 'custom':
      return [
        '#!/bin/sh',
        `# 20 requests with curl to ${host}, each reported to Loadplane as "loadplane:sample <ms> ok|error".`,
        'i=0',
        'while [ "$i" -lt 20 ]; do',
        `  set -- $(curl -s -o /dev/null -w '%{http_code} %{time_total}' ${origin}/healthz)`,
        '  status=ok',
        '  if [ "$1" = 000 ] || [ "$1" -ge 400 ]; then status=error; fi',
        `  echo "loadplane:sample $(echo "$2" | awk '{print $1 * 1000}') $status"`,
        '  i=$((i + 1))',
        'done',
        'echo "done after $i requests"',
        '',
      ].join('\n');
    default:
      return '';
  }
}
