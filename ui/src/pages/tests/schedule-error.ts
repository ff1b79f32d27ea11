/** Which field of the schedule form an API error concerns (its message names it): cron, timezone, config, machines, or null for the form as a whole. */
import { ApiError } from '../../api/api-error';

export type ScheduleField = 'cron' | 'timezone' | 'config' | 'machines';

export function scheduleFieldOfError(error: unknown): ScheduleField | null {
  if (!(error instanceof ApiError)) return null;
  if (error.status !== 400 && error.status !== 404) return null;
  const message = error.message.toLowerCase();
  if (/\bcron\b/.test(message)) return 'cron';
  if (/time ?zone/.test(message)) return 'timezone';
  if (/machine/.test(message)) return 'machines';
  if (/config/.test(message)) return 'config';
  return null;
}
