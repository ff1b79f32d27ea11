/** The `jmeter` load-tool plugin: runs Apache JMeter non-GUI, found by the agent host as `jmeterEngine` declares (or the `binary` config). */
import { definePlugin, engineAvailability, loadToolCapability, locateEngine, programLookupPort } from 'loadplane/plugin';
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
    const which = ctx.has(programLookupPort) ? ctx.use(programLookupPort) : undefined;
    // On an agent: JMETER_BIN, PATH, ~/.cache/loadplane/jmeter/<version>/bin/jmeter, with its version. A `binary` other than the default wins.
    const engine = await locateEngine(ctx, jmeterEngine);
    const binary = ctx.config.binary !== 'jmeter' ? ctx.config.binary : engine.path;
    const version = engine.found && binary === engine.path ? (engine.version ?? undefined) : undefined;
    // Our assembly has the metrics listener; any other JMeter still runs, through the JTL stream.
    const probe = engine.found || binary !== engine.path ? await locateEngine(ctx, jmeterListenerProbe(binary)) : null;
    const metricsListener = probe?.found === true && probe.version === metricsListenerName;
    const tool = createJmeterTool({ binary, which, version, metricsListener });
    // Not found here: the locator's answer says where it looked and how to install it.
    ctx.provide(loadToolCapability, engine.found || binary !== engine.path ? tool : { ...tool, available: async () => engineAvailability(engine) });
  },
});
