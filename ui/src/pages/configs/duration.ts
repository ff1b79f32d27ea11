/** Go-style durations ("500ms", "30s", "5m", "1h30m"): parsing to milliseconds and a short form for axes. */

const unitMs: Record<string, number> = { ns: 1e-6, us: 1e-3, 'µs': 1e-3, ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
const part = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h)/g;

/** Milliseconds, or null when the text is not a duration. */
export function parseDuration(text: string): number | null {
  const input = text.trim();
  if (!input || !/^(\d+(\.\d+)?(ns|us|µs|ms|s|m|h))+$/.test(input)) return null;
  let total = 0;
  for (const match of input.matchAll(part)) total += Number(match[1]) * (unitMs[match[2] ?? 's'] ?? 0);
  return total;
}

export const MAX_RUN_MS = 24 * 3_600_000;

/** "90 s" → "1m30s" style, for axis labels and summaries. */
export function shortDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const total = Math.round(ms / 1000);
  const h = Math.floor(total / 3600);
  const m = Math.floor((total % 3600) / 60);
  const s = total % 60;
  return `${h ? `${h}h` : ''}${m ? `${m}m` : ''}${s || (!h && !m) ? `${s}s` : ''}`;
}
