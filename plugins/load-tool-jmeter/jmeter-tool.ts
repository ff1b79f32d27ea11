/** The `jmeter` load tool: validates .jmx plans, runs non-GUI JMeter with this machine's share of the load, reads its metrics. */
import type { LoadTool, ProgramLookup } from 'loadplane/plugin';
import { jmeterCommand } from './jmeter-command.ts';
import { createJmeterParser } from './jmeter-output-parser.ts';
import { validateJmeterScript } from './jmx-validation.ts';

export interface JmeterToolOptions {
  /** The JMeter launcher (`bin/jmeter`), as resolved by the host (default `jmeter`, looked up on PATH when run). */
  binary?: string;
  /** Checks the launcher exists; without it `available()` trusts the host and a missing JMeter fails at start. */
  which?: ProgramLookup;
  /** JMeter's version as the host found it, reported by `available()`. */
  version?: string;
  /** This JMeter has Loadplane's listener (the one `scripts/install-engines jmeter` assembles): no JTL stream. */
  metricsListener?: boolean;
}

export function createJmeterTool(options: JmeterToolOptions = {}): LoadTool {
  const binary = options.binary ?? 'jmeter';
  return {
    tool: 'jmeter',
    validateScript: validateJmeterScript,
    async available() {
      if (!options.which) return { ok: true };
      const path = await options.which(binary);
      if (!path) return { ok: false, reason: `jmeter not found ("${binary}"): run \`bash scripts/install-engines jmeter\`, put bin/jmeter on PATH or set JMETER_BIN` };
      return options.version ? { ok: true, version: options.version } : { ok: true };
    },
    command: (assignment) => jmeterCommand(assignment, binary, { metricsListener: options.metricsListener }),
    createParser: () => createJmeterParser(),
  };
}
