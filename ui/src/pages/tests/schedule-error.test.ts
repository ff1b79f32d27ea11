import { describe, expect, test } from 'bun:test';
import { ApiError } from '../../api/api-error';
import { scheduleFieldOfError } from './schedule-error';

describe('scheduleFieldOfError', () => {
  test('names the field from the message', () => {
    expect(scheduleFieldOfError(new ApiError(400, 'bad_request', 'cron is not a valid 5-field expression: minute: 61 is outside 0-59'))).toBe('cron');
    expect(scheduleFieldOfError(new ApiError(400, 'bad_request', 'timezone "Mars/Olympus" is not an IANA time zone'))).toBe('timezone');
    expect(scheduleFieldOfError(new ApiError(404, 'not_found', 'machine 123 not found'))).toBe('machines');
    expect(scheduleFieldOfError(new ApiError(404, 'not_found', 'config not found'))).toBe('config');
  });
  test('other errors concern the form', () => {
    expect(scheduleFieldOfError(new ApiError(403, 'plan_limit_schedules', 'cron schedules: plan limit reached'))).toBeNull();
    expect(scheduleFieldOfError(new ApiError(400, 'bad_request', 'body is not JSON'))).toBeNull();
    expect(scheduleFieldOfError(new Error('cron'))).toBeNull();
  });
});
