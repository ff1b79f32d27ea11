import { expect, test } from 'bun:test';
import { generateApiToken, hashApiToken, hasValidChecksum, tokenHint, tokenPattern } from './api-token-format.ts';

test('generated tokens have the psk_ format and a valid checksum', () => {
  const seen = new Set<string>();
  for (let i = 0; i < 200; i++) {
    const token = generateApiToken();
    expect(token).toMatch(tokenPattern);
    expect(token.length).toBe(50);
    expect(hasValidChecksum(token)).toBe(true);
    seen.add(token);
  }
  expect(seen.size).toBe(200);
});

test('a single mistyped character fails the checksum', () => {
  const token = generateApiToken();
  let caught = 0;
  for (let i = 4; i < token.length; i++) {
    const swapped = token[i] === 'a' ? 'b' : 'a';
    if (!hasValidChecksum(token.slice(0, i) + swapped + token.slice(i + 1))) caught++;
  }
  expect(caught).toBe(token.length - 4);
  expect(hasValidChecksum(`${token}x`)).toBe(false);
  expect(hasValidChecksum(token.replace('psk_', 'pat_'))).toBe(false);
});

test('hash is hex SHA-256 and the hint shows only the start', async () => {
  expect(await hashApiToken('abc')).toBe('ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad');
  expect(tokenHint('psk_ABCDEFGH')).toBe('psk_ABCD');
});
