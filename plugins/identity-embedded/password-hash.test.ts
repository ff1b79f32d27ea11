/** Password hashing: the stored format, verification, upgrades and generated passwords. */
import { describe, expect, test } from 'bun:test';
import { constantTimeEqualBytes, constantTimeEqualStrings } from './constant-time-equal.ts';
import {
  generatePassword,
  hashPassword,
  parsePasswordHash,
  passwordHashNeedsUpgrade,
  verifyPassword,
} from './password-hash.ts';

describe('hashPassword / verifyPassword', () => {
  test('writes pbkdf2-sha512$iterations$salt$hash and verifies it', async () => {
    const stored = await hashPassword('correct horse', 1000);
    expect(stored).toMatch(/^pbkdf2-sha512\$1000\$[A-Za-z0-9+/=]+\$[A-Za-z0-9+/=]+$/);
    const parsed = parsePasswordHash(stored)!;
    expect(parsed.salt.length).toBe(16);
    expect(parsed.hash.length).toBe(64);
    expect(await verifyPassword('correct horse', stored)).toBe(true);
    expect(await verifyPassword('correct horsE', stored)).toBe(false);
    expect(await verifyPassword('', stored)).toBe(false);
  });

  test('salts every hash', async () => {
    expect(await hashPassword('same', 1000)).not.toBe(await hashPassword('same', 1000));
  });

  test('matches the published PBKDF2-HMAC-SHA512 vector, as Keycloak computes it', async () => {
    // password "password", salt "salt", 1 iteration, 64 bytes (the widely published test vector).
    const expected =
      '867f70cf1ade02cff3752599a3a53dc4af34c7a669815ae5d513554e1c8cf252c02d470a285a0501bad999bfe943c08f050235d7d68b1da55e63f73b60a57fce';
    const hash = btoa(String.fromCharCode(...expected.match(/../g)!.map((byte) => parseInt(byte, 16))));
    const stored = `pbkdf2-sha512$1$${btoa('salt')}$${hash}`;
    expect(await verifyPassword('password', stored)).toBe(true);
    expect(await verifyPassword('Password', stored)).toBe(false);
  });

  test('refuses unreadable hashes instead of throwing', async () => {
    for (const stored of ['', 'plain', 'md5$1$c2FsdA==$aGFzaA==', 'pbkdf2-sha512$x$c2FsdA==$aGFzaA==', 'pbkdf2-sha512$1$!!$aGFzaA==']) {
      expect(parsePasswordHash(stored)).toBeNull();
      expect(await verifyPassword('anything', stored)).toBe(false);
    }
  });

  test('asks for an upgrade when the hash is weaker than configured', async () => {
    const stored = await hashPassword('pw', 1000);
    expect(passwordHashNeedsUpgrade(stored, 1000)).toBe(false);
    expect(passwordHashNeedsUpgrade(stored, 500)).toBe(false);
    expect(passwordHashNeedsUpgrade(stored, 210_000)).toBe(true);
    expect(passwordHashNeedsUpgrade(stored.replace('pbkdf2-sha512', 'pbkdf2-sha256'), 1000)).toBe(true);
  });

  test('rejects nonsensical iteration counts', async () => {
    await expect(hashPassword('pw', 0)).rejects.toThrow(RangeError);
    await expect(hashPassword('pw', 1.5)).rejects.toThrow(RangeError);
  });
});

describe('generatePassword', () => {
  test('is long, random and free of look-alike characters', () => {
    const passwords = new Set(Array.from({ length: 50 }, () => generatePassword()));
    expect(passwords.size).toBe(50);
    for (const password of passwords) {
      expect(password).toHaveLength(24);
      expect(password).toMatch(/^[A-HJ-NP-Za-km-z2-9]+$/);
    }
  });
});

describe('constant-time comparison', () => {
  test('compares bytes and strings', async () => {
    expect(constantTimeEqualBytes(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 3]))).toBe(true);
    expect(constantTimeEqualBytes(new Uint8Array([1, 2, 3]), new Uint8Array([1, 2, 4]))).toBe(false);
    expect(constantTimeEqualBytes(new Uint8Array([1, 2]), new Uint8Array([1, 2, 0]))).toBe(false);
    expect(await constantTimeEqualStrings('secret', 'secret')).toBe(true);
    expect(await constantTimeEqualStrings('secret', 'secreT')).toBe(false);
    expect(await constantTimeEqualStrings('secret', 'secret2')).toBe(false);
  });
});
