/** Which threshold row and field an API error about a test's thresholds names (`thresholds[1].op must be ...`). */
import { ApiError } from '../../api/api-error';

export type ThresholdField = 'metric' | 'endpoint' | 'op' | 'value' | 'abort';

export interface ThresholdError {
  /** The row (0-based), or null when the error is about the list as a whole. */
  index: number | null;
  /** The field of the row, or null for the row (or the list) as a whole. */
  field: ThresholdField | null;
  message: string;
}

const fields = new Set<string>(['metric', 'endpoint', 'op', 'value', 'abort']);

export function thresholdErrorOf(error: unknown): ThresholdError | null {
  if (!(error instanceof ApiError) || error.status !== 400) return null;
  const match = /\bthresholds(?:\[(\d+)\](?:\.(\w+))?)?/.exec(error.message);
  if (!match) return null;
  const index = match[1] === undefined ? null : Number(match[1]);
  const field = match[2] !== undefined && fields.has(match[2]) ? (match[2] as ThresholdField) : null;
  return { index, field, message: error.message };
}
