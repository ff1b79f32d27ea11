/**
 * The custom tool's metrics protocol: a stdout line `loadplane:sample <latency_ms> [ok|error[:<code>] [<name>]]` is
 * one request. The name (the rest of the line, spaces allowed: `GET /api/products`) is its endpoint in the results per
 * endpoint; it needs the status before it. `error:<code>` says how it failed: a status code (`error:500`, kind
 * `status`) or any other word (`error:timeout`, kind `script`).
 */

export const samplePrefix = 'loadplane:sample';

export interface Sample {
  latencyMs: number;
  failed: boolean;
  /** The endpoint's name, when the line gave one. */
  name?: string;
  /** The code after `error:`, when given. */
  code?: string;
}

const sampleLine = /^loadplane:sample\s+(\d+(?:\.\d+)?)(?:\s+(ok|error)(?::(\S{1,100}))?(?:\s+(\S.*?))?)?\s*$/;

/**
 * The sample a line carries, or null. A malformed sample line is null too, so it is logged: the script's author
 * sees the mistake instead of silently losing requests.
 */
export function parseSampleLine(line: string): Sample | null {
  const match = sampleLine.exec(line);
  if (!match) return null;
  // `ok:<code>` is not a form: such a line is logged, not counted.
  if (match[2] === 'ok' && match[3] !== undefined) return null;
  const sample: Sample = { latencyMs: Number(match[1]), failed: match[2] === 'error' };
  if (match[3] !== undefined) sample.code = match[3];
  if (match[4] !== undefined) sample.name = match[4];
  return sample;
}
