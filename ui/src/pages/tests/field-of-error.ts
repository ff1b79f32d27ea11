/** Which form field an API error about a test concerns (its message names it): 'name', 'script', 'thresholds', or null for the form as a whole. */
import { ApiError } from '../../api/api-error';

export type TestField = 'name' | 'script' | 'thresholds';

export function fieldOfError(error: unknown): TestField | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status === 413) return 'script';
  if (error.status !== 400) return null;
  const message = error.message.toLowerCase();
  if (/^thresholds\b|body field "thresholds"/.test(message)) return 'thresholds';
  if (/body field "name"|^name\b|\bname must\b|\bname is\b/.test(message)) return 'name';
  if (/script|body field "tool"|not a valid/.test(message)) return 'script';
  return null;
}
