/**
 * How an agent finds JMeter: JMETER_BIN (a `bin/jmeter` launcher), then `jmeter` on PATH, then the tree
 * `scripts/install-engines jmeter` assembles from Maven Central; the version comes from the file that script writes, and
 * whether it has Loadplane's metrics listener from the marker beside the listener's jar.
 */
import type { EngineSpec } from 'loadplane/plugin';
import { metricsListenerMarker } from './metrics-listener.ts';

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

/** What the listener's marker file starts with (scripts/engines/jmeter.sh writes it beside the jar). */
export const metricsListenerName = 'loadplane-metrics';

/**
 * Asks whether one JMeter launcher (a path, or a name on PATH) is the JMeter `scripts/install-engines jmeter` assembled,
 * with Loadplane's listener in its lib/ext: its "version" is then the listener's name, else null. Reads a file, starts
 * no JVM.
 */
export function jmeterListenerProbe(binary: string): EngineSpec {
  return {
    name: 'jmeter',
    program: binary,
    cached: [`jmeter/${jmeterVersion}/bin/jmeter`],
    version: { file: `jmeter/${jmeterVersion}/${metricsListenerMarker}`, pattern: `^(${metricsListenerName})\\b` },
  };
}
