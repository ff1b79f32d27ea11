import { describe, expect, test } from 'bun:test';
import { causeOf, describeWaiting, namedCause, poolCause } from './pending-reason.ts';

const machine = (name: string, connected: boolean, free: boolean) => ({ name, connected, free });

describe('why a pending task waits', () => {
  test('a pool: nothing online, nothing offering the tool (with what a machine said), or all busy with the count ahead', () => {
    const none = { online: false, offered: false, problem: null };
    expect(describeWaiting(poolCause(none, 'k6', 4))).toBe('no machine of this workspace is online');
    const lacking = { online: true, offered: false, problem: { machine: 'gen-1', reason: 'k6 not found (PATH):\n install it with `bash scripts/install-engines k6`' } };
    expect(describeWaiting(poolCause(lacking, 'k6', 0))).toBe('no online machine offers k6: on gen-1, k6 not found (PATH): install it with `bash scripts/install-engines k6`');
    expect(describeWaiting(poolCause({ ...lacking, problem: null }, 'k6', 0))).toStartWith('no online machine offers k6: install it on one and restart its agent');
    const busy = { online: true, offered: true, problem: null };
    expect(describeWaiting(poolCause(busy, 'k6', 0))).toBe('waiting for a free machine');
    expect(describeWaiting(poolCause(busy, 'k6', 1))).toBe('waiting for a free machine (1 task ahead)');
    expect(describeWaiting(poolCause(busy, 'k6', 3))).toBe('waiting for a free machine (3 tasks ahead)');
  });

  test('named machines: offline ones first, then busy ones; none when all are free and nothing is ahead', () => {
    expect(describeWaiting(namedCause([machine('gen-1', true, false), machine('gen-2', false, false)], 2)!)).toBe('machine gen-2 is offline');
    expect(describeWaiting(namedCause(['a', 'b', 'c', 'd', 'e'].map((n) => machine(n, false, false)), 0)!)).toBe('machines a, b, c and 2 more are offline');
    expect(describeWaiting(namedCause([machine('a', false, false), machine('b', false, false)], 0)!)).toBe('machines a and b are offline');
    expect(describeWaiting(namedCause([machine('gen-1', true, false), machine('gen-2', true, true)], 0)!)).toBe('waiting for machine gen-1 to be free');
    expect(describeWaiting(namedCause([machine('gen-1', true, false), machine('gen-2', true, false)], 2)!)).toBe('waiting for machines gen-1 and gen-2 to be free (2 tasks ahead)');
    // Free, but a task ahead takes them first.
    expect(describeWaiting(namedCause([machine('gen-1', true, true)], 1)!)).toBe('waiting for machine gen-1 to be free (1 task ahead)');
    expect(namedCause([machine('gen-1', true, true)], 0)).toBeNull();
  });

  test('the cause, for the log, ignores the count ahead and nothing else', () => {
    expect(causeOf('waiting for a free machine (3 tasks ahead)')).toBe(causeOf('waiting for a free machine (1 task ahead)'));
    expect(causeOf('waiting for a free machine (3 tasks ahead)')).toBe(causeOf('waiting for a free machine'));
    expect(causeOf('waiting for a free machine')).not.toBe(causeOf('no machine of this workspace is online'));
    expect(causeOf(null)).toBeNull();
  });
});
