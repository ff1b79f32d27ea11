/** The figures' formatting: units, rounding and the dash for missing values. */
import { describe, expect, test } from 'bun:test';
import { durationBetween, formatChange, formatClockTime, formatCount, formatDateTime, formatDuration, formatFigure, formatMs, formatPercent, formatRate } from './formatters';

describe('formatters', () => {
  test('milliseconds by size', () => {
    expect(formatMs(0.842)).toBe('0.84 ms');
    expect(formatMs(12.34)).toBe('12.3 ms');
    expect(formatMs(1204.4)).toBe('1,204 ms');
    expect(formatMs(12_500)).toBe('12.5 s');
    expect(formatMs(null)).toBe('–');
    expect(formatMs(Number.NaN)).toBe('–');
  });
  test('rates, fractions and counts', () => {
    expect(formatRate(12.34)).toBe('12.3/s');
    expect(formatRate(1204.4)).toBe('1,204/s');
    expect(formatPercent(0)).toBe('0 %');
    expect(formatPercent(0.0123)).toBe('1.23 %');
    expect(formatPercent(0.5)).toBe('50.0 %');
    expect(formatPercent(0.00001)).toBe('< 0.01 %');
    expect(formatCount(100042)).toBe('100,042');
  });
  test("a chart's figures: fewer decimals the larger, as toLocaleString gives them", () => {
    for (const value of [1204.4, 120.56, 12.34, 4.567, 0.04219, 0, -3.21, -1500.5, 1e9]) {
      const abs = Math.abs(value);
      const digits = abs >= 100 ? 0 : abs >= 10 ? 1 : abs >= 1 ? 2 : 3;
      expect(formatFigure(value)).toBe(value.toLocaleString('en', { maximumFractionDigits: digits }));
    }
    expect(formatFigure(1204.4)).toBe('1,204');
    expect(formatFigure(0.04219)).toBe('0.042');
    expect(formatFigure(null)).toBe('–');
    expect(formatFigure(Number.NaN)).toBe('–');
  });
  test('date and time in the reader\'s locale, as toLocaleString gives them', () => {
    const iso = '2026-03-04T05:06:07Z';
    expect(formatDateTime(iso)).toBe(new Date(iso).toLocaleString(undefined, { dateStyle: 'medium', timeStyle: 'medium' }));
    expect(formatDateTime(iso)).toContain('2026');
    expect(formatDateTime('not a date')).toBe('–');
    expect(formatDateTime(null)).toBe('–');
    expect(formatClockTime(Date.parse(iso) / 1000)).toBe(new Date(iso).toLocaleTimeString());
    expect(formatClockTime(null)).toBe('–');
  });
  test('durations and changes', () => {
    expect(formatDuration(850)).toBe('850 ms');
    expect(formatDuration(42_000)).toBe('42 s');
    expect(formatDuration(185_000)).toBe('3 min 05 s');
    expect(formatDuration(3_720_000)).toBe('1 h 02 min');
    expect(durationBetween('2026-01-01T00:00:00Z', '2026-01-01T00:00:08Z')).toBe(8000);
    expect(durationBetween(null, null)).toBeNull();
    expect(formatChange(0.12)).toBe('+12.0 %');
    expect(formatChange(-0.034)).toBe('−3.4 %');
    expect(formatChange(0)).toBe('±0.0 %');
    expect(formatChange(null)).toBe('–');
  });
});
