/**
 * The jmeter tool passes the load-tool contract in both of its ways of reading results: with Loadplane's listener (the
 * JMeter `scripts/install-engines jmeter` assembles) and through the JTL stream (any other JMeter). The real runs need
 * JMeter (skipped without it, required in CI).
 */
import { createNodeProcessRunner, describeLoadToolContract, locateEngineOnHost } from 'loadplane/plugin/testing';
import { jmeterEngine, jmeterListenerProbe, metricsListenerName } from './engine.ts';
import { httpPlan } from './http-plan.ts';
import { createJmeterTool } from './jmeter-tool.ts';

// Found as an agent finds it: JMETER_BIN, PATH, ~/.cache/loadplane/jmeter/5.6.3/bin/jmeter.
const jmeter = await locateEngineOnHost(jmeterEngine, { env: process.env });
const listener = jmeter.found ? await locateEngineOnHost(jmeterListenerProbe(jmeter.path), { env: process.env }) : null;
const hasListener = listener?.found === true && listener.version === metricsListenerName;
const runner = createNodeProcessRunner();

for (const metricsListener of [true, false]) {
  describeLoadToolContract(metricsListener ? 'jmeter' : 'jmeter (JTL stream)', () => createJmeterTool({ binary: jmeter.path, which: runner.which, metricsListener }), {
    goodScript: httpPlan({ url: 'http://127.0.0.1:1/' }),
    badScripts: [
      'GET http://127.0.0.1/',
      '<jmeterTestPlan><hashTree>',
      '<?xml version="1.0"?><project><hashTree/></project>',
      '<jmeterTestPlan version="1.2"><hashTree><TestPlan testclass="TestPlan"/><hashTree/></hashTree></jmeterTestPlan>',
    ],
    realRun: {
      // 2 threads × 5 iterations of one GET: exactly 10 requests, whatever the timing.
      script: (target) => httpPlan({ url: `${target}/contract`, threads: 2, loops: 5 }),
      requests: 10,
      hitsTarget: true,
      logContains: 'end of run',
      unavailable: !jmeter.found ? jmeter.reason : metricsListener && !hasListener ? `${jmeter.path} has no Loadplane listener: run \`bash scripts/install-engines jmeter\`` : null,
    },
  });
}
