/**
 * JMeter in the engine-overhead benchmark: a plan whose one ThreadGroup GETs the target in a loop. Alone, its threads
 * and duration come from `-J` properties the plan reads with __P(); through Loadplane the agent writes the load config
 * into the ThreadGroup instead. The alone command is the plain non-GUI run (no `-l`: JMeter with only its default
 * summariser, the cheapest way to run it), so the ratio charges the agent's JTL stream in full.
 */
import { join } from 'node:path';
import { homedir } from 'node:os';
import { findEngine } from '../../adapters/agent/engine-locator.ts';
import { jmeterEngine } from '../../plugins/load-tool-jmeter/engine.ts';
import { httpPlan } from '../../plugins/load-tool-jmeter/http-plan.ts';
import type { EngineLeg } from './leg.ts';

/** The launcher the agent would find (JMETER_BIN, PATH, the cache), else `jmeter`. */
function jmeterLauncher(): string {
  const found = findEngine(jmeterEngine, { env: process.env, dir: join(homedir(), '.cache/loadplane') });
  return 'path' in found ? found.path : 'jmeter';
}

export const leg: EngineLeg = {
  tool: 'jmeter',
  processName: 'java',
  scriptFile: 'plan.jmx',
  script: (targetUrl) => httpPlan({ url: `${targetUrl}/`, threads: '${__P(threads,1)}', loops: -1, durationS: '${__P(duration,10)}' }),
  aloneCommand: ({ workDir, vus, durationS }) => ({
    argv: [jmeterLauncher(), '-n', '-t', join(workDir, 'plan.jmx'), `-Jthreads=${vus}`, `-Jduration=${durationS}`, '-Jjmeterengine.nongui.port=0'],
  }),
};
