/**
 * Reads a `.cpuprofile` written by Bun's `--cpu-prof` and summarises only the samples inside a time window (epoch ms):
 * where a benchmark's measured stretch spent the process's time, without the boot that dominates a whole-run profile.
 */
import { readFileSync } from 'node:fs';

interface ProfileNode {
  id: number;
  callFrame: { functionName: string; url: string; lineNumber: number };
  children?: number[];
}

interface Profile {
  nodes: ProfileNode[];
  /** Epoch microseconds in Bun's profiles. */
  startTime: number;
  samples: number[];
  timeDeltas: number[];
}

/** Which part of the stack a frame belongs to, by its file. */
export function areaOf(url: string, name: string): string {
  if (url.includes('@electric-sql/pglite')) return 'PGlite (WASM PostgreSQL + its JS glue)';
  if (url.includes('/pg/') || url.includes('pg-protocol') || url.includes('/pg-')) return 'pg driver';
  if (url.includes('@mikro-orm')) return 'MikroORM';
  if (url.includes('/elysia/')) return 'Elysia';
  if (url.includes('@sinclair/typebox')) return 'TypeBox';
  if (url.includes('/node_modules/')) return 'other dependencies';
  if (url.includes('/core/') || url.includes('/plugins/') || url.includes('/adapters/')) return 'Loadplane code';
  if (!url) return 'native';
  return `other: ${name}`;
}

export interface WindowSummary {
  samples: number;
  ms: number;
  idleMs: number;
  areas: { area: string; ms: number; share: number }[];
  hot: { fn: string; where: string; selfMs: number; share: number }[];
  /** Inclusive time of Loadplane functions (each sample counted once per function on its stack). */
  ours: { fn: string; where: string; totalMs: number; share: number }[];
}

export function summarizeWindow(path: string, fromEpochMs: number, toEpochMs: number, top = 15): WindowSummary {
  const profile = JSON.parse(readFileSync(path, 'utf8')) as Profile;
  const nodes = new Map(profile.nodes.map((node) => [node.id, node]));
  const parent = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parent.set(child, node.id);
  const label = (node: ProfileNode) => {
    const file = node.callFrame.url.replace(/^.*\/node_modules\//, '').replace(/^.*\/main\//, '');
    return { fn: node.callFrame.functionName || '(anonymous)', where: file ? `${file}:${node.callFrame.lineNumber + 1}` : '[native]' };
  };

  // Bun samples only while JavaScript (or native code called from it) runs: idle stretches leave gaps between samples,
  // so every sample weighs one typical interval (the median gap), and idle time is the window minus the busy time.
  const sortedDeltas = [...profile.timeDeltas].sort((a, b) => a - b);
  const interval = (sortedDeltas[Math.floor(sortedDeltas.length / 2)] ?? 1000) / 1000;
  const selfMs = new Map<number, number>();
  const inclusive = new Map<string, number>();
  const areas = new Map<string, number>();
  let t = profile.startTime;
  let samples = 0;
  for (let i = 0; i < profile.samples.length; i++) {
    t += profile.timeDeltas[i] ?? 0;
    const at = t / 1000;
    if (at < fromEpochMs || at > toEpochMs) continue;
    const id = profile.samples[i]!;
    const node = nodes.get(id)!;
    if (node.callFrame.functionName === '(idle)' || node.callFrame.functionName === '(program)') continue;
    samples++;
    selfMs.set(id, (selfMs.get(id) ?? 0) + interval);
    // Native frames (JSON, encoders, fs calls) count for the nearest caller with a file: PGlite's fs writes are PGlite.
    let area: string | null = null;
    const seen = new Set<string>();
    for (let cursor: number | undefined = id; cursor !== undefined; cursor = parent.get(cursor)) {
      const frame = nodes.get(cursor)!;
      if (area === null && frame.callFrame.url) area = areaOf(frame.callFrame.url, frame.callFrame.functionName);
      if (areaOf(frame.callFrame.url, frame.callFrame.functionName) !== 'Loadplane code') continue;
      const { fn, where } = label(frame);
      const key = `${fn}\t${where}`;
      if (seen.has(key)) continue;
      seen.add(key);
      inclusive.set(key, (inclusive.get(key) ?? 0) + interval);
    }
    area ??= 'runtime internals (no JS caller: socket and stream pumps, GC)';
    areas.set(area, (areas.get(area) ?? 0) + interval);
  }
  const ms = toEpochMs - fromEpochMs;
  const busy = samples * interval;
  const idleMs = Math.max(0, ms - busy);
  const byFunction = new Map<string, number>();
  for (const [id, weight] of selfMs) {
    const { fn, where } = label(nodes.get(id)!);
    byFunction.set(`${fn}\t${where}`, (byFunction.get(`${fn}\t${where}`) ?? 0) + weight);
  }
  const share = (value: number) => (busy > 0 ? value / busy : 0);
  return {
    samples,
    ms,
    idleMs,
    areas: [...areas].map(([area, value]) => ({ area, ms: value, share: share(value) })).sort((a, b) => b.ms - a.ms),
    hot: [...byFunction]
      .map(([key, value]) => ({ fn: key.split('\t')[0]!, where: key.split('\t')[1]!, selfMs: value, share: share(value) }))
      .sort((a, b) => b.selfMs - a.selfMs)
      .slice(0, top),
    ours: [...inclusive]
      .map(([key, value]) => ({ fn: key.split('\t')[0]!, where: key.split('\t')[1]!, totalMs: value, share: share(value) }))
      .sort((a, b) => b.totalMs - a.totalMs)
      .slice(0, top),
  };
}

export function windowMarkdown(title: string, summary: WindowSummary): string {
  const pct = (value: number) => `${(value * 100).toFixed(1)}%`;
  return [
    `#### ${title}: main thread busy ${Math.round(summary.ms - summary.idleMs)} ms of ${Math.round(summary.ms)} ms (${summary.samples} samples)`,
    '',
    '| area (self time; native calls count for their JS caller) | ms | share of busy |',
    '| --- | --- | --- |',
    ...summary.areas.map((a) => `| ${a.area} | ${Math.round(a.ms)} | ${pct(a.share)} |`),
    '',
    '| hottest functions (self) | where | ms | share |',
    '| --- | --- | --- | --- |',
    ...summary.hot.map((h) => `| \`${h.fn}\` | ${h.where} | ${Math.round(h.selfMs)} | ${pct(h.share)} |`),
    '',
    '| Loadplane functions (inclusive) | where | ms | share |',
    '| --- | --- | --- | --- |',
    ...summary.ours.map((h) => `| \`${h.fn}\` | ${h.where} | ${Math.round(h.totalMs)} | ${pct(h.share)} |`),
  ].join('\n');
}
