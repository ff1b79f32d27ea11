/** The custom tool's metrics protocol: a stdout line `loadplane:sample <latency_ms> [ok|error]` is one request. */

export const samplePrefix = 'loadplane:sample';

export interface Sample {
  latencyMs: number;
  failed: boolean;
}

const sampleLine = /^loadplane:sample\s+(\d+(?:\.\d+)?)(?:\s+(ok|error))?\s*$/;

/**
 * The sample a line carries, or null. A malformed sample line is null too, so it is logged: the script's author
 * sees the mistake instead of silently losing requests.
 */
export function parseSampleLine(line: string): Sample | null {
  const match = sampleLine.exec(line);
  if (!match) return null;
  return { latencyMs: Number(match[1]), failed: match[2] === 'error' };
}
