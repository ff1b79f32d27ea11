/**
 * A minimal .jmx plan: one ThreadGroup whose threads GET one URL in a loop. The shape JMeter 5.6 saves, for examples,
 * the contract and integration tests and the engine-overhead benchmark.
 */

export interface HttpPlanOptions {
  /** The URL each sample GETs (http or https). */
  url: string;
  /** A number, or a JMeter expression such as `${__P(threads,1)}`. */
  threads?: number | string;
  /** Iterations per thread; -1 loops until `durationS` ends. */
  loops?: number;
  /** With the scheduler on: the thread group stops after this many seconds. */
  durationS?: number | string;
  /** Extra elements in the thread group, beside the sampler (each followed by its own `<hashTree/>`). */
  extra?: string;
}

const xmlText = (text: string) => text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');

export function httpPlan(options: HttpPlanOptions): string {
  const url = new URL(options.url);
  const port = url.port || (url.protocol === 'https:' ? '443' : '80');
  const scheduled = options.durationS !== undefined;
  return `<?xml version="1.0" encoding="UTF-8"?>
<jmeterTestPlan version="1.2" properties="5.0" jmeter="5.6.3">
  <hashTree>
    <TestPlan guiclass="TestPlanGui" testclass="TestPlan" testname="HTTP plan">
      <elementProp name="TestPlan.user_defined_variables" elementType="Arguments" guiclass="ArgumentsPanel" testclass="Arguments" testname="User Defined Variables">
        <collectionProp name="Arguments.arguments"/>
      </elementProp>
      <boolProp name="TestPlan.functional_mode">false</boolProp>
      <boolProp name="TestPlan.serialize_threadgroups">false</boolProp>
    </TestPlan>
    <hashTree>
      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="Users">
        <stringProp name="ThreadGroup.num_threads">${options.threads ?? 1}</stringProp>
        <stringProp name="ThreadGroup.ramp_time">0</stringProp>
        <boolProp name="ThreadGroup.same_user_on_next_iteration">true</boolProp>
        <stringProp name="ThreadGroup.on_sample_error">continue</stringProp>
        <elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController" testname="Loop Controller">
          <stringProp name="LoopController.loops">${options.loops ?? 1}</stringProp>
          <boolProp name="LoopController.continue_forever">false</boolProp>
        </elementProp>
        <boolProp name="ThreadGroup.scheduler">${scheduled}</boolProp>
        <stringProp name="ThreadGroup.duration">${scheduled ? options.durationS : ''}</stringProp>
        <stringProp name="ThreadGroup.delay"></stringProp>
      </ThreadGroup>
      <hashTree>
        <HTTPSamplerProxy guiclass="HttpTestSampleGui" testclass="HTTPSamplerProxy" testname="GET ${xmlText(url.pathname)}">
          <stringProp name="HTTPSampler.domain">${xmlText(url.hostname)}</stringProp>
          <stringProp name="HTTPSampler.port">${port}</stringProp>
          <stringProp name="HTTPSampler.protocol">${url.protocol.slice(0, -1)}</stringProp>
          <stringProp name="HTTPSampler.path">${xmlText(url.pathname + url.search)}</stringProp>
          <boolProp name="HTTPSampler.follow_redirects">true</boolProp>
          <stringProp name="HTTPSampler.method">GET</stringProp>
          <boolProp name="HTTPSampler.use_keepalive">true</boolProp>
          <boolProp name="HTTPSampler.postBodyRaw">false</boolProp>
          <elementProp name="HTTPsampler.Arguments" elementType="Arguments" guiclass="HTTPArgumentsPanel" testclass="Arguments" testname="User Defined Variables">
            <collectionProp name="Arguments.arguments"/>
          </elementProp>
        </HTTPSamplerProxy>
        <hashTree/>${options.extra ?? ''}
      </hashTree>
    </hashTree>
  </hashTree>
</jmeterTestPlan>
`;
}
