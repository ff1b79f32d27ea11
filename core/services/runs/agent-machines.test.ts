/** The names an agent gets when another agent's machine holds its hostname: the first label numbered, still a host name. */
import { describe, expect, test } from 'bun:test';
import { normalizeHostname } from '../../domain/machine-rules.ts';
import { numberedHostname } from './agent-machines.ts';

describe('numberedHostname', () => {
  test('numbers the first label, keeping the domain', () => {
    expect(numberedHostname('gen', 2)).toBe('gen-2');
    expect(numberedHostname('web.example.com', 3)).toBe('web-3.example.com');
    expect(numberedHostname('gen-2', 2)).toBe('gen-2-2');
  });

  test('cuts a long label (63 at most) and a long name (253 at most), without a hyphen before the number', () => {
    const label = `${'a'.repeat(59)}-bcd`;
    expect(numberedHostname(label, 12)).toBe(`${'a'.repeat(59)}-12`);
    const long = [`${'x'.repeat(61)}`, ...Array(3).fill('y'.repeat(63))].join('.');
    expect(long.length).toBe(253);
    const numbered = numberedHostname(long, 7);
    expect(numbered.length).toBe(253);
    expect(normalizeHostname(numbered)).toBe(numbered);
  });

  test('every result is a valid host name', () => {
    for (const name of ['a', 'a-b', 'x'.repeat(63), `${'x'.repeat(63)}.example`]) {
      for (const n of [2, 10, 999]) expect(normalizeHostname(numberedHostname(name, n))).toBe(numberedHostname(name, n));
    }
  });
});
