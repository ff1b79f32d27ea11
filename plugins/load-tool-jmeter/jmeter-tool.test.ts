import { describe, expect, test } from 'bun:test';
import { type Assignment, LatencyHistogram } from 'loadplane/plugin';
import { httpPlan } from './http-plan.ts';
import { jmeterCommand, jmeterLogConfig } from './jmeter-command.ts';
import { jmeterErrorOf, jmeterOutcome } from './jmeter-outcome.ts';
import { createJmeterParser } from './jmeter-output-parser.ts';
import { createJmeterTool } from './jmeter-tool.ts';
import { applyLoadShare } from './jmx-load.ts';
import { validateJmeterScript, xmlProblem } from './jmx-validation.ts';
import { parseJtlLine } from './jtl-line.ts';
import { resultsOnStdout } from './jtl-output.ts';
import { metricsListenerClass, withMetricsListener } from './metrics-listener.ts';
import { maxGroups, stageSchedule } from './stage-schedule.ts';

const plan = httpPlan({ url: 'http://127.0.0.1:8080/x', threads: 3, loops: 7 });

const assignment = (overrides: Partial<Assignment> = {}): Assignment => ({
  assignmentId: 'as-1',
  taskId: 'task-1',
  testId: 'test-1',
  tool: 'jmeter',
  script: plan,
  config: null,
  machineIndex: 0,
  machineCount: 1,
  ...overrides,
});

/** The schedule properties of each core ThreadGroup in a plan, in order. */
function groupsOf(jmx: string) {
  return [...jmx.matchAll(/<ThreadGroup\b[^>]*>([\s\S]*?)<\/ThreadGroup>/g)].map((match) => {
    const prop = (name: string) => new RegExp(`name="${name}">([^<]*)<`).exec(match[1]!)?.[1];
    return {
      threads: prop('ThreadGroup.num_threads'),
      ramp: prop('ThreadGroup.ramp_time'),
      scheduler: prop('ThreadGroup.scheduler'),
      duration: prop('ThreadGroup.duration'),
      delay: prop('ThreadGroup.delay'),
      loops: prop('LoopController.loops'),
      props: (match[1]!.match(/name="ThreadGroup\.num_threads"/g) ?? []).length,
    };
  });
}

describe('command', () => {
  test('with the listener: the plan gets it, JMeter runs as it is (no wrapper, no JTL), stdout straight to the agent', () => {
    const command = jmeterCommand(assignment(), '/opt/jmeter/bin/jmeter', { metricsListener: true });
    expect(command.argv).toEqual([
      '/opt/jmeter/bin/jmeter', '-n', '-t', 'plan.jmx', '-i', 'log4j2.xml',
      '-Jsummariser.out=false', '-Jjmeterengine.nongui.port=0', '-Jjmeterengine.force.system.exit=true',
      '-Jloadplane.machine_index=0', '-Jloadplane.machine_count=1',
    ]);
    expect(command.files).toEqual({ 'plan.jmx': withMetricsListener(plan), 'log4j2.xml': jmeterLogConfig });
    expect(validateJmeterScript(command.files!['plan.jmx']!)).toBeNull();
    const idle = jmeterCommand(assignment({ config: { vus: 2, duration: '10s' }, machineIndex: 2, machineCount: 3 }), 'jmeter', { metricsListener: true });
    expect(idle.argv).toEqual(['jmeter', '--version']);
  });

  test('no config, without the listener: the plan as written, JTL on fd 3, log config, the JTL columns as -J properties', () => {
    const command = jmeterCommand(assignment(), '/opt/jmeter/bin/jmeter');
    expect(command.argv.slice(0, 3)).toEqual(resultsOnStdout);
    expect(command.argv.slice(3, 11)).toEqual(['/opt/jmeter/bin/jmeter', '-n', '-t', 'plan.jmx', '-i', 'log4j2.xml', '-l', '/dev/fd/3']);
    expect(command.argv).toContain('-Jjmeter.save.saveservice.output_format=csv');
    expect(command.argv).toContain('-Jjmeter.save.saveservice.label=false');
    expect(command.argv).toContain('-Jjmeter.save.saveservice.subresults=false');
    expect(command.argv).toContain('-Jjmeterengine.nongui.port=0');
    expect(command.argv.slice(-2)).toEqual(['-Jloadplane.machine_index=0', '-Jloadplane.machine_count=1']);
    expect(command.files).toEqual({ 'plan.jmx': plan, 'log4j2.xml': jmeterLogConfig });
    expect(command.env).toEqual({ LOADPLANE_TASK_ID: 'task-1', LOADPLANE_MACHINE_INDEX: '0', LOADPLANE_MACHINE_COUNT: '1' });
    expect(command.sampleFile).toBeUndefined();
  });

  test('the wrapper keeps JMeter\'s exit status through the pipe to cat', async () => {
    const run = async (code: number) => {
      const argv = [...resultsOnStdout, '/bin/sh', '-c', `echo 1,2,true >&3; echo log line; exit ${code}`];
      const dir = await import('node:fs/promises').then((fs) => fs.mkdtemp('/tmp/jmeter-wrapper-'));
      const child = Bun.spawn(argv, { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
      const [out, err, exit] = await Promise.all([new Response(child.stdout).text(), new Response(child.stderr).text(), child.exited]);
      return { out, err, exit };
    };
    expect(await run(0)).toEqual({ out: '1,2,true\n', err: 'log line\n', exit: 0 });
    expect(await run(3)).toEqual({ out: '1,2,true\n', err: 'log line\n', exit: 3 });
  });

  test('the relay passes every byte of a large JTL on, in order', async () => {
    const dir = await import('node:fs/promises').then((fs) => fs.mkdtemp('/tmp/jmeter-relay-'));
    const writer = "seq 1700000000000 1700000199999 | sed 's/$/,1,true/' >&3";
    const child = Bun.spawn([...resultsOnStdout, '/bin/sh', '-c', writer], { cwd: dir, stdout: 'pipe', stderr: 'pipe' });
    const [out, exit] = await Promise.all([new Response(child.stdout).text(), child.exited]);
    expect(exit).toBe(0);
    const lines = out.split('\n');
    expect(lines.length).toBe(200_001);
    expect(lines.every((line, i) => (i === 200_000 ? line === '' : line === `${1700000000000 + i},1,true`))).toBe(true);
  });

  test('vus and duration, split across machines: every ThreadGroup gets its share, looping until the duration', () => {
    const command = jmeterCommand(assignment({ config: { vus: 10, duration: '1m30s' }, machineIndex: 2, machineCount: 3 }), 'jmeter');
    expect(groupsOf(command.files!['plan.jmx']!)).toEqual([{ threads: '3', ramp: '0', scheduler: 'true', duration: '90', delay: '0', loops: '-1', props: 1 }]);
    expect(validateJmeterScript(command.files!['plan.jmx']!)).toBeNull();
    expect(command.argv.slice(-2)).toEqual(['-Jloadplane.machine_index=2', '-Jloadplane.machine_count=3']);
  });

  test('a sub-second duration runs for JMeter\'s smallest, one second', () => {
    const command = jmeterCommand(assignment({ config: { vus: 1, duration: '300ms' } }), 'jmeter');
    expect(groupsOf(command.files!['plan.jmx']!)[0]!.duration).toBe('1');
  });

  test('stages: the ThreadGroup and its subtree become scheduled groups adding up to the ramp', () => {
    const config = { stages: [{ duration: '4s', target: 4 }, { duration: '2s', target: 4 }, { duration: '4s', target: 0 }] };
    const jmx = jmeterCommand(assignment({ config }), 'jmeter').files!['plan.jmx']!;
    expect(validateJmeterScript(jmx)).toBeNull();
    const groups = groupsOf(jmx);
    expect(groups.length).toBe(stageSchedule(config.stages).length);
    expect((jmx.match(/<HTTPSamplerProxy /g) ?? []).length).toBe(groups.length);
    expect(groups.every((g) => g.ramp === '0' && g.scheduler === 'true' && g.loops === '-1' && g.props === 1)).toBe(true);
    // Running threads at each second: up by one a second, 4 held, down by one a second.
    const at = (s: number) => groups.filter((g) => Number(g.delay) <= s && s < Number(g.delay) + Number(g.duration)).reduce((n, g) => n + Number(g.threads), 0);
    expect(Array.from({ length: 11 }, (_, s) => at(s))).toEqual([1, 2, 3, 4, 4, 4, 4, 3, 2, 1, 0]);
  });

  test('a machine whose share is 0 VUs only checks JMeter is there', () => {
    const command = jmeterCommand(assignment({ config: { vus: 2, duration: '10s' }, machineIndex: 2, machineCount: 3 }), 'jmeter');
    expect(command.argv).toEqual([...resultsOnStdout, 'jmeter', '--version']);
    expect(command.files).toBeUndefined();
  });

  test('deterministic', () => {
    const a = assignment({ config: { stages: [{ duration: '10s', target: 7 }, { duration: '5s', target: 0 }] } });
    expect(jmeterCommand(a, 'jmeter')).toEqual(jmeterCommand(a, 'jmeter'));
  });
});

describe('the metrics listener in the plan', () => {
  const element = (jmx: string) => jmx.match(new RegExp(`<${metricsListenerClass.replace(/\./g, '\\.')}\\b[^>]*/><hashTree/>`, 'g')) ?? [];

  test('the test plan\'s first child, once, beside the thread groups (heard by every sampler)', () => {
    const jmx = withMetricsListener(plan);
    expect(element(jmx).length).toBe(1);
    expect(jmx).toMatch(new RegExp(`</TestPlan>\\s*<hashTree><${metricsListenerClass}[^>]*/><hashTree/>\\s*<ThreadGroup `));
    expect(jmx.replace(element(jmx)[0]!, '')).toBe(plan);
    expect(validateJmeterScript(jmx)).toBeNull();
  });

  test('a test plan with an empty subtree or a self-closed TestPlan gets it too; a plan without TestPlan is left alone', () => {
    const empty = '<jmeterTestPlan><hashTree><TestPlan testclass="TestPlan"></TestPlan><hashTree/></hashTree></jmeterTestPlan>';
    expect(withMetricsListener(empty)).toBe(`<jmeterTestPlan><hashTree><TestPlan testclass="TestPlan"></TestPlan><hashTree>${element(withMetricsListener(empty))[0]}</hashTree></hashTree></jmeterTestPlan>`);
    expect(xmlProblem(withMetricsListener(empty))).toBeNull();
    const selfClosed = '<jmeterTestPlan><hashTree><TestPlan testclass="TestPlan"/>\n<hashTree><ThreadGroup testclass="ThreadGroup"/><hashTree/></hashTree></hashTree></jmeterTestPlan>';
    expect(element(withMetricsListener(selfClosed)).length).toBe(1);
    expect(xmlProblem(withMetricsListener(selfClosed))).toBeNull();
    const none = '<jmeterTestPlan><hashTree><ThreadGroup testclass="ThreadGroup"/><hashTree/></hashTree></jmeterTestPlan>';
    expect(withMetricsListener(none)).toBe(none);
  });

  test('with a load config the listener is still there once, after the thread groups are rewritten', () => {
    const config = { stages: [{ duration: '3s', target: 3 }, { duration: '2s', target: 0 }] };
    const jmx = jmeterCommand(assignment({ config }), 'jmeter', { metricsListener: true }).files!['plan.jmx']!;
    expect(element(jmx).length).toBe(1);
    expect(groupsOf(jmx).length).toBe(stageSchedule(config.stages).length);
  });
});

describe('load share in the plan', () => {
  test('only enabled core ThreadGroups are rewritten; setUp groups and disabled groups run as written', () => {
    const two = plan.replace(
      '</hashTree>\n  </hashTree>\n</jmeterTestPlan>',
      `  <SetupThreadGroup guiclass="SetupThreadGroupGui" testclass="SetupThreadGroup" testname="setup"><intProp name="ThreadGroup.num_threads">1</intProp></SetupThreadGroup>
      <hashTree/>
      <ThreadGroup guiclass="ThreadGroupGui" testclass="ThreadGroup" testname="off" enabled="false"><intProp name="ThreadGroup.num_threads">9</intProp></ThreadGroup>
      <hashTree/>
    </hashTree>\n  </hashTree>\n</jmeterTestPlan>`,
    );
    expect(two).not.toBe(plan);
    const rewritten = applyLoadShare(two, { vus: 5, duration: '2s' });
    expect(validateJmeterScript(rewritten)).toBeNull();
    expect(groupsOf(rewritten).map((g) => g.threads)).toEqual(['5', '9']);
    expect(rewritten).toContain('<SetupThreadGroup guiclass="SetupThreadGroupGui" testclass="SetupThreadGroup" testname="setup"><intProp name="ThreadGroup.num_threads">1</intProp>');
  });

  test('serialized thread groups run side by side under a config', () => {
    const serialized = plan.replace('TestPlan.serialize_threadgroups">false', 'TestPlan.serialize_threadgroups">true');
    expect(applyLoadShare(serialized, { vus: 1, duration: '1s' })).toContain('TestPlan.serialize_threadgroups">false');
    expect(applyLoadShare(serialized, {})).toBe(serialized);
  });

  test('a group without a loop controller gets one; self-closed props are replaced too', () => {
    const bare = plan.replace(/<elementProp name="ThreadGroup.main_controller"[\s\S]*?<\/elementProp>/, '').replace(/<stringProp name="ThreadGroup.delay"><\/stringProp>/, '<stringProp name="ThreadGroup.delay"/>');
    const rewritten = applyLoadShare(bare, { vus: 2, duration: '3s' });
    expect(groupsOf(rewritten)).toEqual([{ threads: '2', ramp: '0', scheduler: 'true', duration: '3', delay: '0', loops: '-1', props: 1 }]);
    expect((rewritten.match(/ThreadGroup\.delay/g) ?? []).length).toBe(1);
  });
});

describe('stage schedule', () => {
  const running = (groups: ReturnType<typeof stageSchedule>, s: number) =>
    groups.filter((g) => g.delayS <= s && s < g.delayS + g.durationS).reduce((n, g) => n + g.threads, 0);

  test('a ramp up from 0 and a hold: threads start a second apart and stop together at the end', () => {
    const groups = stageSchedule([{ duration: '3s', target: 3 }, { duration: '2s', target: 3 }]);
    expect(groups).toEqual([
      { threads: 1, delayS: 0, durationS: 5 },
      { threads: 1, delayS: 1, durationS: 4 },
      { threads: 1, delayS: 2, durationS: 3 },
    ]);
  });

  test('a step (a 0 s stage) starts its threads at once, in one group', () => {
    expect(stageSchedule([{ duration: '0s', target: 5 }, { duration: '3s', target: 5 }])).toEqual([{ threads: 5, delayS: 0, durationS: 3 }]);
  });

  test('up, down and up again: the newest threads stop first', () => {
    const groups = stageSchedule([{ duration: '2s', target: 4 }, { duration: '2s', target: 0 }, { duration: '2s', target: 2 }]);
    expect(Array.from({ length: 7 }, (_, s) => running(groups, s))).toEqual([1, 3, 3, 1, 1, 2, 0]);
  });

  test('a long ramp of many VUs is stepped coarser, never more than maxGroups groups, and still reaches its target', () => {
    const groups = stageSchedule([{ duration: '2h', target: 5000 }, { duration: '10m', target: 5000 }, { duration: '1h', target: 0 }]);
    expect(groups.length).toBeLessThanOrEqual(maxGroups);
    expect(groups.reduce((n, g) => n + g.threads, 0)).toBe(5000);
    expect(running(groups, 2 * 3600 + 300)).toBe(5000);
  });
});

describe('JTL lines', () => {
  test('timeStamp,elapsed,success', () => {
    expect(parseJtlLine('1732358400123,15,true')).toEqual({ startedAt: 1732358400123, elapsedMs: 15, success: true });
    expect(parseJtlLine('1732358400123,0,false\r')).toEqual({ startedAt: 1732358400123, elapsedMs: 0, success: false });
    for (const other of ['', 'timeStamp,elapsed,success', 'INFO JMeter: hi', '1,2,true', '1732358400123,15,maybe', '1732358400123,-1,true']) {
      expect(parseJtlLine(other)).toBeNull();
    }
  });

  test('the parser: samples on stdout into the histogram (not the log), everything else logged', () => {
    let now = 1_000;
    const parser = createJmeterParser(() => now);
    expect(parser.onOutput('out', '1732358400000,10,true')).toBeNull();
    expect(parser.onOutput('out', '1732358400005,30,false')).toBeNull();
    expect(parser.onOutput('out', '1732358400009,20,true')).toBeNull();
    expect(parser.onOutput('err', 'INFO StandardJMeterEngine: Running the test!')).toBe('INFO StandardJMeterEngine: Running the test!');
    // A sample-looking line on stderr is a log line, not a sample.
    expect(parser.onOutput('err', '1732358400009,20,true')).toBe('1732358400009,20,true');
    now = 2_000;
    const interval = parser.takeInterval(now)!;
    expect(interval.requests).toBe(3);
    expect(interval.errors).toBe(1);
    // A sample counts when it ended: started + elapsed.
    expect(interval.startedAt).toBe(1732358400010);
    expect(interval.endedAt).toBe(1732358400035);
    const histogram = LatencyHistogram.decode(parser.summary().histogram);
    expect(histogram.count).toBe(3);
    // The histogram keeps ~3 significant digits: a bucket's upper edge, at most 1/1024 above.
    expect(histogram.percentile(50)).toBeWithin(20, 20 * (1 + 1 / 1024) + 1e-9);
    expect(histogram.max).toBe(30);
    expect(parser.takeInterval(now)).toBeNull();
  });
});

describe('listener lines', () => {
  const line = (from: number, to: number, ok: Record<string, number>, ko: Record<string, number> = {}) => `@loadplane-metrics ${JSON.stringify({ from, to, ok, ko })}`;

  test('counts per millisecond on stdout into the histogram (not the log); console lines logged; the load window is the summary\'s', () => {
    const parser = createJmeterParser(() => 1_000);
    expect(parser.onOutput('out', 'Starting standalone test @ 2026 Nov 23 13:37:48 UTC (1795441068532)')).toBe('Starting standalone test @ 2026 Nov 23 13:37:48 UTC (1795441068532)');
    expect(parser.onOutput('out', line(1_795_441_068_751, 1_795_441_069_620, { 0: 2, 12: 5 }, { 40: 1 }))).toBeNull();
    const first = parser.takeInterval(1_795_441_069_700)!;
    expect([first.requests, first.errors, first.startedAt, first.endedAt]).toEqual([8, 1, 1_795_441_068_751, 1_795_441_069_620]);
    expect(parser.onOutput('out', line(1_795_441_069_615, 1_795_441_070_634, { 12: 3 }))).toBeNull();
    const summary = parser.summary();
    expect([summary.requests, summary.errors, summary.startedAt, summary.endedAt]).toEqual([11, 1, 1_795_441_068_751, 1_795_441_070_634]);
    const histogram = LatencyHistogram.decode(summary.histogram);
    expect(histogram.count).toBe(11);
    expect(histogram.max).toBeWithin(40, 40 * (1 + 1 / 1024) + 1e-9);
    expect(histogram.percentile(50)).toBeWithin(12, 12 * (1 + 1 / 1024) + 1e-9);
    // A torn line is logged as it is, not counted.
    expect(parser.onOutput('out', '@loadplane-metrics {"from":')).toBe('@loadplane-metrics {"from":');
    expect(parser.summary().requests).toBe(11);
  });
});

describe('outcome', () => {
  test('exit 0 completes whatever the samples did; other exits fail with JMeter\'s last error', () => {
    expect(jmeterOutcome(0, null)).toEqual({ status: 'completed' });
    expect(jmeterOutcome(null, 'SIGKILL')).toEqual({ status: 'failed', reason: 'killed by SIGKILL' });
    expect(jmeterOutcome(1, null)).toEqual({ status: 'failed', reason: 'JMeter could not run the plan (exit code 1)' });
    expect(jmeterOutcome(127, null).reason).toMatch(/not found/);
    const parser = createJmeterParser();
    parser.onOutput('err', 'INFO JMeter: Loading file: plan.jmx');
    parser.onOutput('err', 'An error occurred: Error in NonGUIDriver Problem loading XML from:\'/tmp/x/plan.jmx\'.');
    parser.onOutput('err', 'INFO JMeter: bye');
    expect(parser.outcome(1, null)).toEqual({
      status: 'failed',
      reason: "JMeter could not run the plan: Error in NonGUIDriver Problem loading XML from:'/tmp/x/plan.jmx'. (exit code 1)",
    });
    expect(parser.outcome(0, null)).toEqual({ status: 'completed' });
  });

  test('error lines: ERROR log lines, console errors, uncaught exceptions; not INFO lines', () => {
    expect(jmeterErrorOf('ERROR JMeter: Error in NonGUIDriver')).toBe('Error in NonGUIDriver');
    expect(jmeterErrorOf('Error in NonGUIDriver java.lang.IllegalArgumentException: Problem loading XML')).toBe('java.lang.IllegalArgumentException: Problem loading XML');
    expect(jmeterErrorOf('Exception in thread "main" java.lang.OutOfMemoryError: Java heap space')).toBe('java.lang.OutOfMemoryError: Java heap space');
    expect(jmeterErrorOf('INFO JMeter: all is well')).toBeNull();
    expect(jmeterErrorOf(`ERROR X: ${'y'.repeat(400)}`)!.length).toBe(301);
  });
});

describe('validation', () => {
  test('a saved plan passes; not XML, broken XML, another root or no thread group are refused with a message', () => {
    expect(validateJmeterScript(plan)).toBeNull();
    expect(validateJmeterScript(`\uFEFF<!-- saved by hand -->\n${plan}`)).toBeNull();
    expect(validateJmeterScript('')).toBe('script must not be empty');
    expect(validateJmeterScript('import http from "k6/http"')).toMatch(/not XML/);
    expect(validateJmeterScript(plan.slice(0, plan.length / 2))).toMatch(/not well-formed XML: .*never closed|unterminated/);
    expect(validateJmeterScript('<?xml version="1.0"?><project><hashTree/></project>')).toBe("a .jmx test plan's root element is <jmeterTestPlan>, not <project>");
    expect(validateJmeterScript('<jmeterTestPlan><hashTree><TestPlan testclass="TestPlan"/><hashTree/></hashTree></jmeterTestPlan>')).toMatch(/no enabled thread group/);
    expect(validateJmeterScript(plan.replace('testclass="ThreadGroup" testname="Users"', 'testclass="ThreadGroup" testname="Users" enabled="false"'))).toMatch(/no enabled thread group/);
  });

  test('the XML scanner: nesting, quotes, comments, CDATA', () => {
    expect(xmlProblem('<a x="1>2"><b/><!-- <c> --><![CDATA[<d>]]></a>')).toBeNull();
    expect(xmlProblem('<a><b></a></b>')).toBe('</a> closes <b> on line 1');
    expect(xmlProblem('<a></a><b/>')).toBe('a second root element <b> on line 1');
    expect(xmlProblem('<a>\n<b x="1"')).toBe('unterminated tag on line 2');
    expect(xmlProblem('</a>')).toBe('</a> without an opening tag on line 1');
    expect(xmlProblem('<a></a> trailing')).toBe('text after the root element on line 1');
  });
});

describe('tool', () => {
  test('available() uses the injected lookup', async () => {
    const found = createJmeterTool({ binary: '/opt/jmeter', which: async (p) => p, version: '5.6.3' });
    expect(await found.available()).toEqual({ ok: true, version: '5.6.3' });
    const missing = await createJmeterTool({ which: async () => null }).available();
    expect(missing.ok).toBe(false);
    expect(createJmeterTool({ binary: '/opt/jmeter' }).command(assignment()).argv[3]).toBe('/opt/jmeter');
    expect(createJmeterTool({ binary: '/opt/jmeter', metricsListener: true }).command(assignment()).argv[0]).toBe('/opt/jmeter');
    expect(createJmeterTool().tool).toBe('jmeter');
  });
});
