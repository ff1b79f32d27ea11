/** The `jmeter` load-tool plugin: runs Apache JMeter non-GUI, found by the agent host as `jmeterEngine` declares (or the `binary` config). */
import { definePlugin, provideEngineTool } from 'loadplane/plugin';
import { JmeterConfigSchema } from './config.ts';
import { jmeterEngine, jmeterListenerProbe, metricsListenerName } from './engine.ts';
import { createJmeterTool } from './jmeter-tool.ts';

export { type JmeterConfig, JmeterConfigSchema } from './config.ts';
export { jmeterEngine, jmeterListenerProbe, jmeterVersion, metricsListenerName } from './engine.ts';
export { jmeterCommand, type JmeterCommandOptions, jmeterLogConfig, jmeterPlanFile, jmeterProperties } from './jmeter-command.ts';
export { jtlProperties } from './jtl-output.ts';
export { metricsListenerClass, withMetricsListener } from './metrics-listener.ts';
export { jmeterOutcome } from './jmeter-outcome.ts';
export { createJmeterParser } from './jmeter-output-parser.ts';
export { createJmeterTool, type JmeterToolOptions } from './jmeter-tool.ts';
export { httpPlan, type HttpPlanOptions } from './http-plan.ts';
export { validateJmeterScript } from './jmx-validation.ts';

export default definePlugin({
  name: 'load-tool-jmeter',
  configSchema: JmeterConfigSchema,
  async setup(ctx) {
    // On an agent: JMETER_BIN, PATH, ~/.cache/loadplane/jmeter/<version>/bin/jmeter, with its version. A `binary` other than the default wins.
    await provideEngineTool(ctx, jmeterEngine, {
      configuredBinary: ctx.config.binary,
      defaultBinary: 'jmeter',
      // Our assembly has the metrics listener; any other JMeter still runs, through the JTL stream.
      extension: { probe: jmeterListenerProbe, name: metricsListenerName },
      create: ({ binary, which, version, extension }) => createJmeterTool({ binary, which, version, metricsListener: extension }),
    });
  },
});
