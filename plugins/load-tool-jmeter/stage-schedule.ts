/**
 * Stages (linear VU ramps from 0) as fixed-size JMeter thread groups: core JMeter's ThreadGroup starts its threads
 * after a delay and stops all of them together after a duration, both in whole seconds, so a ramp becomes steps. The VU
 * curve is sampled every `step` seconds (1 s, coarser only when a long ramp would need more than `maxGroups` groups);
 * each thread starts when the curve first reaches its level and the newest threads stop first when it falls.
 */
import { parseDuration } from 'loadplane/plugin';

export interface ScheduledGroup {
  threads: number;
  /** Seconds after the test's start. */
  delayS: number;
  durationS: number;
}

export const maxGroups = 400;

/** VUs at `ms` on the ramp: linear within each stage, from 0 at the start. */
function vusAt(stages: readonly { ms: number; target: number }[], ms: number): number {
  let from = 0;
  let start = 0;
  for (const stage of stages) {
    if (ms <= start + stage.ms) return stage.ms === 0 ? stage.target : from + ((stage.target - from) * (ms - start)) / stage.ms;
    from = stage.target;
    start += stage.ms;
  }
  return from;
}

function scheduleWithStep(stages: readonly { ms: number; target: number }[], totalS: number, step: number): ScheduledGroup[] {
  const active: number[] = []; // start second of each running thread, oldest first
  const groups = new Map<string, ScheduledGroup>();
  const stop = (count: number, at: number) => {
    for (let i = 0; i < count; i++) {
      const start = active.pop()!;
      const key = `${start}:${at}`;
      const group = groups.get(key) ?? { threads: 0, delayS: start, durationS: at - start };
      group.threads++;
      groups.set(key, group);
    }
  };
  for (let second = 0; second < totalS; second += step) {
    // The level for [second, second + step): the curve at the window's middle, so a ramp's steps straddle the line.
    const level = Math.round(vusAt(stages, Math.min(second + step / 2, totalS) * 1000));
    if (level > active.length) for (let i = active.length; i < level; i++) active.push(second);
    else if (level < active.length) stop(active.length - level, second);
  }
  stop(active.length, totalS);
  return [...groups.values()].sort((a, b) => a.delayS - b.delayS || a.durationS - b.durationS);
}

export function stageSchedule(stages: readonly { duration: string; target: number }[]): ScheduledGroup[] {
  const parsed = stages.map((stage) => ({ ms: parseDuration(stage.duration), target: stage.target }));
  const totalS = Math.max(1, Math.ceil(parsed.reduce((sum, stage) => sum + stage.ms, 0) / 1000));
  for (let step = 1; ; step *= 2) {
    const groups = scheduleWithStep(parsed, totalS, step);
    if (groups.length <= maxGroups || step >= totalS) return groups;
  }
}
