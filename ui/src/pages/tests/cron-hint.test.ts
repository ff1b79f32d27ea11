import { describe, expect, test } from 'bun:test';
import { cronShapeProblem, describeCron } from './cron-hint';

describe('describeCron', () => {
  test('daily, weekly and monthly times', () => {
    expect(describeCron('0 2 * * *')).toBe('every day at 02:00');
    expect(describeCron('30 9,17 * * *')).toBe('every day at 09:30 and 17:30');
    expect(describeCron('0 3 * * mon-fri')).toBe('every weekday (Monday to Friday) at 03:00');
    expect(describeCron('15 6 * * 1,5')).toBe('every Monday and Friday at 06:15');
    expect(describeCron('0 0 * * 7')).toBe('every Sunday at 00:00');
    expect(describeCron('0 12 1 * *')).toBe('on the 1st of every month at 12:00');
  });
  test('minutes and hours', () => {
    expect(describeCron('* * * * *')).toBe('every minute');
    expect(describeCron('*/15 * * * *')).toBe('every 15 minutes');
    expect(describeCron('0 * * * *')).toBe('every hour, on the hour');
    expect(describeCron('5 */6 * * *')).toBe('every 6 hours at 05 minutes past');
  });
  test('anything else has no reading', () => {
    expect(describeCron('0 12 1 * mon')).toBeNull();
    expect(describeCron('0 2 * 1 *')).toBeNull();
    expect(describeCron('61 2 * * *')).toBeNull();
    expect(describeCron('0 2 * *')).toBeNull();
    expect(describeCron('')).toBeNull();
  });
});

describe('cronShapeProblem', () => {
  test('five fields of cron characters pass', () => {
    expect(cronShapeProblem(' 0 3 * * mon-fri ')).toBeNull();
    expect(cronShapeProblem('*/15 9-17/2 1,15 jan *')).toBeNull();
  });
  test('blank, wrong count or odd characters are named', () => {
    expect(cronShapeProblem('  ')).toContain('Enter a cron expression');
    expect(cronShapeProblem('0 2 * *')).toContain('this one has 4');
    expect(cronShapeProblem('0 2 * * ?')).toContain('"?" is not a cron field');
  });
});
