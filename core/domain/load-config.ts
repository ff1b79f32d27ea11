/** Load configurations: duration parsing, validation (VUs + duration, or stages) and the split of VUs across machines. */
import type { LoadConfig } from '../capabilities/load-tool.ts';
import { badRequest } from '../kernel/errors.ts';

export const maxVus = 100_000;
export const maxStages = 100;
/** A day: longer runs are almost always a typo (`300m` meant as seconds), and k6 and friends cap runs anyway. */
export const maxDurationMs = 24 * 60 * 60 * 1000;

const unitMs = { ms: 1, s: 1_000, m: 60_000, h: 3_600_000 } as const;
const segment = /(\d+(?:\.\d+)?)(ms|s|m|h)/y;

/**
 * `500ms`, `30s`, `5m`, `1h30m`, `1.5s` → milliseconds. The units are Go's (`time.ParseDuration`), so a parsed
 * duration can be handed to k6 unchanged. Throws a `bad_request` naming `field` on anything else.
 */
const maxDurationLength = 20;

export function parseDuration(text: unknown, field = 'duration'): number {
  if (typeof text !== 'string' || text.trim() === '') {
    throw badRequest(`${field} must be a duration such as "30s", "5m" or "1h30m"`, { field });
  }
  const input = text.trim();
  // Stored as written (a configuration's duration column is 20 characters): "1h30m" is 5, a real duration never needs more.
  if (input.length > maxDurationLength) throw badRequest(`${field} is at most ${maxDurationLength} characters, e.g. "1h30m"`, { field });
  if (/^\d+(\.\d+)?$/.test(input)) {
    throw badRequest(`${field} "${input}" has no unit: write "${input}s", "${input}m" or "${input}ms"`, { field });
  }
  let total = 0;
  let index = 0;
  while (index < input.length) {
    segment.lastIndex = index;
    const match = segment.exec(input);
    if (!match) {
      throw badRequest(`${field} "${input}" is not a duration: use numbers with ms, s, m or h, e.g. "90s" or "1h30m"`, { field });
    }
    total += Number(match[1]) * unitMs[match[2] as keyof typeof unitMs];
    index = segment.lastIndex;
  }
  const ms = Math.round(total);
  if (ms > maxDurationMs) throw badRequest(`${field} "${input}" is longer than 24h`, { field });
  return ms;
}

/** Milliseconds → the shortest Go-style duration (`90000` → `1m30s`, `1500` → `1s500ms`). */
export function formatDuration(ms: number): string {
  if (ms <= 0) return '0s';
  const parts: string[] = [];
  let rest = Math.round(ms);
  for (const [unit, size] of [['h', 3_600_000], ['m', 60_000], ['s', 1_000], ['ms', 1]] as const) {
    const count = Math.floor(rest / size);
    if (count > 0) parts.push(`${count}${unit}`);
    rest -= count * size;
  }
  return parts.join('');
}

function checkVus(value: unknown, field: string, min: number): number {
  if (typeof value !== 'number' || !Number.isInteger(value) || value < min || value > maxVus) {
    throw badRequest(`${field} must be an integer from ${min} to ${maxVus}`, { field });
  }
  return value;
}

/**
 * Checks a load configuration and returns it normalised (durations trimmed, nothing else carried over).
 * Either `vus` with `duration`, or 1..100 `stages` of `{duration, target}`, never both.
 */
export function validateLoadConfig(input: unknown): LoadConfig {
  if (typeof input !== 'object' || input === null || Array.isArray(input)) {
    throw badRequest('a load configuration is an object with vus and duration, or stages', { field: 'config' });
  }
  const { vus, duration, stages } = input as Record<string, unknown>;
  const hasSimple = (vus !== undefined && vus !== null) || (duration !== undefined && duration !== null);
  const hasStages = stages !== undefined && stages !== null;
  if (hasSimple && hasStages) {
    throw badRequest('give either vus with duration, or stages, not both', { field: 'stages' });
  }
  if (hasStages) {
    if (!Array.isArray(stages) || stages.length === 0 || stages.length > maxStages) {
      throw badRequest(`stages must be a list of 1 to ${maxStages} stages`, { field: 'stages' });
    }
    let totalMs = 0;
    let peak = 0;
    const checked = stages.map((stage: unknown, i) => {
      const at = `stages[${i}]`;
      if (typeof stage !== 'object' || stage === null) {
        throw badRequest(`${at} must be an object with duration and target`, { field: at });
      }
      const { duration: stageDuration, target } = stage as Record<string, unknown>;
      totalMs += parseDuration(stageDuration, `${at}.duration`);
      peak = Math.max(peak, checkVus(target, `${at}.target`, 0));
      return { duration: (stageDuration as string).trim(), target: target as number };
    });
    if (totalMs <= 0) throw badRequest('stages must last longer than 0s in total', { field: 'stages' });
    if (totalMs > maxDurationMs) throw badRequest('stages must last at most 24h in total', { field: 'stages' });
    if (peak === 0) throw badRequest('at least one stage needs a target above 0', { field: 'stages' });
    return { stages: checked };
  }
  if (vus === undefined || vus === null) throw badRequest('vus is required (with duration), or give stages', { field: 'vus' });
  checkVus(vus, 'vus', 1);
  if (duration === undefined || duration === null) throw badRequest('duration is required with vus', { field: 'duration' });
  if (parseDuration(duration, 'duration') <= 0) throw badRequest('duration must be longer than 0s', { field: 'duration' });
  return { vus: vus as number, duration: (duration as string).trim() };
}

/** This machine's part of `total`: as even as possible, the remainder going to the first machines. */
export function machineShare(total: number, machineIndex: number, machineCount: number): number {
  if (!Number.isInteger(machineCount) || machineCount < 1) throw new RangeError(`machineCount must be ≥ 1, got ${machineCount}`);
  if (!Number.isInteger(machineIndex) || machineIndex < 0 || machineIndex >= machineCount) {
    throw new RangeError(`machineIndex must be in 0..${machineCount - 1}, got ${machineIndex}`);
  }
  const base = Math.floor(total / machineCount);
  return base + (machineIndex < total % machineCount ? 1 : 0);
}

/**
 * One machine's share of a configuration: VUs (or each stage's target) split across the machines, durations unchanged.
 * With fewer VUs than machines some machines get 0: see `isIdleShare`.
 */
export function splitLoadConfig(config: LoadConfig, machineIndex: number, machineCount: number): LoadConfig {
  if (config.stages) {
    return {
      stages: config.stages.map((stage) => ({ duration: stage.duration, target: machineShare(stage.target, machineIndex, machineCount) })),
    };
  }
  return { ...config, ...(config.vus !== undefined ? { vus: machineShare(config.vus, machineIndex, machineCount) } : {}) };
}

/** Whether a (split) configuration leaves nothing to do: 0 VUs, or every stage's target 0. */
export function isIdleShare(config: LoadConfig): boolean {
  if (config.stages) return config.stages.every((stage) => stage.target === 0);
  return config.vus === 0;
}

/** How long a configuration runs, in milliseconds (0 when it does not say). */
export function configDurationMs(config: LoadConfig): number {
  if (config.stages) return config.stages.reduce((sum, stage) => sum + parseDuration(stage.duration, 'stages.duration'), 0);
  return config.duration ? parseDuration(config.duration) : 0;
}
