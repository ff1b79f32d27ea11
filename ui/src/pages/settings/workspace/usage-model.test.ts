/** Usage against the plan: rows, texts and fractions. */
import { describe, expect, test } from 'bun:test';
import { fraction, limitText, usageRows, usedText } from './usage-model';

const workspace = { limits: { apiTokensPerUser: 5, machines: 25, tests: 500, aiToolCallsPerMonth: 5000 } };
const usage = {
  period: '2026-11',
  ai_tool_calls: { used: 2500, limit: 5000 },
  machines: { used: 3, limit: 25 },
  tests: { used: 12, limit: null },
  storage: { log_bytes: 2048, metric_bytes: 0 },
};

describe('usage rows', () => {
  test('every row, from GET /usage and GET /workspace', () => {
    const rows = usageRows({ workspace, usage, activeTokens: 2, pendingTasks: 1 });
    expect(rows.map((row) => row.label)).toEqual([
      'Machines',
      'Tests',
      'Your API tokens',
      'Waiting (pending) tasks',
      'AI tool calls this month (2026-11)',
      'Stored run logs',
      'Stored metrics (estimate)',
    ]);
    const [machines, tests, tokens, pending, ai, logs] = rows;
    expect(fraction(machines!)).toBeCloseTo(0.12);
    expect(limitText(tests!)).toBe('unlimited');
    expect(fraction(tests!)).toBeNull();
    expect(usedText(tokens!)).toBe('2');
    expect(limitText(tokens!)).toBe('5');
    expect(limitText(pending!)).toBe('not reported');
    expect(usedText(pending!)).toBe('1');
    expect(fraction(ai!)).toBe(0.5);
    expect(usedText(logs!)).toBe('2.0 KiB');
    expect(limitText(logs!)).toBe('no limit');
  });
  test('a pending-task limit the API adds later is used', () => {
    const rows = usageRows({ workspace: { limits: { ...workspace.limits, pendingTasks: 200 } }, usage, activeTokens: 0, pendingTasks: 4 });
    expect(limitText(rows[3]!)).toBe('200');
    const withUsage = usageRows({ workspace, usage: { ...usage, pending_tasks: { used: 7, limit: 20 } } as never, activeTokens: 0, pendingTasks: 4 });
    expect(usedText(withUsage[3]!)).toBe('7');
    expect(limitText(withUsage[3]!)).toBe('20');
  });
  test('unknown while loading', () => {
    const rows = usageRows({ workspace: undefined, usage: undefined, activeTokens: undefined, pendingTasks: undefined });
    expect(usedText(rows[0]!)).toBe('–');
  });
});
