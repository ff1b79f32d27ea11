/**
 * How an agent finds JMeter: JMETER_BIN (a `bin/jmeter` launcher), then `jmeter` on PATH, then the tree
 * `scripts/install-engines jmeter` assembles from Maven Central; the version comes from the file that script writes.
 */
import type { EngineSpec } from 'loadplane/plugin';

export const jmeterVersion = '5.6.3';

export const jmeterEngine: EngineSpec = {
  name: 'jmeter',
  program: 'jmeter',
  envVar: 'JMETER_BIN',
  cached: [`jmeter/${jmeterVersion}/bin/jmeter`],
  // Read from a file rather than `jmeter --version`: that starts a JVM (seconds) every time an agent starts.
  version: { file: `jmeter/${jmeterVersion}/version` },
  install: 'jmeter',
  hint: 'install Apache JMeter 5.6+ (with Java 17+) and put bin/jmeter on PATH',
};
