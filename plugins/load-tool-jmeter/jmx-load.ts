/**
 * A machine's share of the load config written into the plan's ThreadGroups, so any plan runs under the config as it
 * is (no `${__P(...)}` needed in it): `vus` + `duration` set every enabled ThreadGroup to that many threads, no ramp,
 * looping until the duration ends; `stages` replace every enabled ThreadGroup (and its subtree) by the thread groups
 * of `stageSchedule`. Other thread-group kinds (setUp, tearDown, plugins' groups) run as the plan says.
 */
import { parseDuration } from 'loadplane/plugin';
import { type ScheduledGroup, stageSchedule } from './stage-schedule.ts';

export interface LoadShare {
  vus?: number;
  duration?: string;
  stages?: { duration: string; target: number }[];
}

const scheduleProps = /\s*<(stringProp|intProp|longProp|boolProp)\s+name="ThreadGroup\.(num_threads|ramp_time|scheduler|duration|delay)"\s*(?:\/>|>[^<]*<\/\1>)/g;
const loopsProp = /\s*<(stringProp|intProp)\s+name="LoopController\.(loops|continue_forever)"\s*(?:\/>|>[^<]*<\/\1>)/g;
const mainController = /<elementProp\s+name="ThreadGroup\.main_controller"[^>]*>/;

/** The ThreadGroup element's inner XML with our schedule: loops forever, stopped by the scheduler's duration. */
function scheduledBody(body: string, group: ScheduledGroup): string {
  let inner = body.replace(scheduleProps, '').replace(loopsProp, '');
  const loops = '<stringProp name="LoopController.loops">-1</stringProp><boolProp name="LoopController.continue_forever">false</boolProp>';
  if (mainController.test(inner)) inner = inner.replace(mainController, (tag) => `${tag}${loops}`);
  else {
    inner = `<elementProp name="ThreadGroup.main_controller" elementType="LoopController" guiclass="LoopControlPanel" testclass="LoopController" testname="Loop Controller">${loops}</elementProp>${inner}`;
  }
  const schedule =
    `<stringProp name="ThreadGroup.num_threads">${group.threads}</stringProp>` +
    '<stringProp name="ThreadGroup.ramp_time">0</stringProp>' +
    '<boolProp name="ThreadGroup.scheduler">true</boolProp>' +
    `<stringProp name="ThreadGroup.duration">${group.durationS}</stringProp>` +
    `<stringProp name="ThreadGroup.delay">${group.delayS}</stringProp>`;
  return `${schedule}${inner}`;
}

/** Where the `<hashTree>` right after `from` ends (its children are the group's samplers), or `from` if there is none. */
function subtreeEnd(plan: string, from: number): number {
  const start = /^\s*<hashTree\s*(\/?)>/.exec(plan.slice(from));
  if (!start) return from;
  if (start[1] === '/') return from + start[0].length;
  const tags = /<(\/?)hashTree\s*(\/?)>/g;
  tags.lastIndex = from + start[0].length;
  let depth = 1;
  for (let match = tags.exec(plan); match; match = tags.exec(plan)) {
    if (match[2] === '/') continue;
    depth += match[1] === '/' ? -1 : 1;
    if (depth === 0) return match.index + match[0].length;
  }
  return plan.length;
}

const threadGroupElement = /<ThreadGroup\b([^>]*?)(\/?)>/g;

/** Rewrites each enabled core ThreadGroup (with the subtree that follows it) through `render`. */
function rewriteThreadGroups(plan: string, render: (attributes: string, body: string, subtree: string) => string): string {
  let out = '';
  let at = 0;
  threadGroupElement.lastIndex = 0;
  for (let open = threadGroupElement.exec(plan); open; open = threadGroupElement.exec(plan)) {
    const attributes = open[1]!;
    const selfClosing = open[2] === '/';
    const bodyStart = open.index + open[0].length;
    const close = selfClosing ? bodyStart : plan.indexOf('</ThreadGroup>', bodyStart);
    if (close === -1) break;
    const elementEnd = selfClosing ? bodyStart : close + '</ThreadGroup>'.length;
    const treeEnd = subtreeEnd(plan, elementEnd);
    if (/\benabled="false"/.test(attributes)) continue;
    out += plan.slice(at, open.index) + render(attributes, selfClosing ? '' : plan.slice(bodyStart, close), plan.slice(elementEnd, treeEnd));
    at = treeEnd;
    threadGroupElement.lastIndex = treeEnd;
  }
  return out + plan.slice(at);
}

/** Thread groups run side by side: the config's schedule is the whole run's, not one group's after another. */
const unserialized = (plan: string) =>
  plan.replace(/<boolProp\s+name="TestPlan\.serialize_threadgroups">true<\/boolProp>/g, '<boolProp name="TestPlan.serialize_threadgroups">false</boolProp>');

export function applyLoadShare(plan: string, share: LoadShare): string {
  if (share.stages && share.stages.length > 0) {
    const groups = stageSchedule(share.stages);
    return unserialized(
      rewriteThreadGroups(plan, (attributes, body, subtree) =>
        groups
          .map((group, i) => {
            const named = attributes.replace(/\btestname="([^"]*)"/, (_, name: string) => `testname="${name} [step ${i + 1}/${groups.length}]"`);
            return `<ThreadGroup${named}>${scheduledBody(body, group)}</ThreadGroup>${subtree}`;
          })
          .join('\n'),
      ),
    );
  }
  if (share.vus !== undefined && share.duration) {
    const group = { threads: share.vus, delayS: 0, durationS: Math.max(1, Math.ceil(parseDuration(share.duration) / 1000)) };
    return unserialized(rewriteThreadGroups(plan, (attributes, body, subtree) => `<ThreadGroup${attributes}>${scheduledBody(body, group)}</ThreadGroup>${subtree}`));
  }
  return plan;
}
