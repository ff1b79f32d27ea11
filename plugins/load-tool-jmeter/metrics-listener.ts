/**
 * Loadplane's JMeter listener (scripts/engines/jmeter/loadplane/jmeter/LoadplaneMetrics.java, built by
 * `scripts/install-engines jmeter` into the JMeter it assembles): counts each sample's elapsed time per millisecond in
 * the JVM and prints one `@loadplane-metrics` line a second, so nothing leaves JMeter per request. The agent adds it to
 * the plan at the test plan's level, where a listener hears every thread group's samples.
 */

export const metricsListenerClass = 'loadplane.jmeter.LoadplaneMetrics';

/** The jar in JMeter's lib/ext, and the file beside it that says which listener it is (what the agent probes). */
export const metricsListenerJar = 'lib/ext/loadplane-metrics.jar';
export const metricsListenerMarker = 'lib/ext/loadplane-metrics.version';

// JMeter's loader requires a guiclass attribute; non-GUI JMeter never instantiates it, so a stock one stands in.
const listenerElement = `<${metricsListenerClass} guiclass="SimpleDataWriter" testclass="${metricsListenerClass}" testname="Loadplane metrics" enabled="true"/><hashTree/>`;

const testPlanEnd = /<TestPlan\b[^>]*?\/>|<\/TestPlan>/;
const hashTreeStart = /^\s*<hashTree\s*(\/?)>/;

/** The plan with the listener as the test plan's first child; unchanged when it has no `<TestPlan>` with a subtree. */
export function withMetricsListener(plan: string): string {
  const end = testPlanEnd.exec(plan);
  if (!end) return plan;
  const after = end.index + end[0].length;
  const tree = hashTreeStart.exec(plan.slice(after));
  if (!tree) return plan;
  const treeEnd = after + tree[0].length;
  const children = tree[1] === '/' ? `<hashTree>${listenerElement}</hashTree>` : `${tree[0]}${listenerElement}`;
  return plan.slice(0, after) + children + plan.slice(treeEnd);
}
