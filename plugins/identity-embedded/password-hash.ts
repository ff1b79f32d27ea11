/** Password hashing as Keycloak does it (PBKDF2, SHA-512, 512-bit key), stored as `pbkdf2-sha512$iterations$salt$hash`. */
import { constantTimeEqualBytes } from './constant-time-equal.ts';
import { type HashAdmission, passwordHashSlots } from './password-hash-slots.ts';

const encoder = new TextEncoder();

/** Algorithms a stored hash may name: our own, plus Keycloak's older ones so exported realms still sign in. */
const algorithms = {
  'pbkdf2-sha512': { hash: 'SHA-512', bits: 512 },
  'pbkdf2-sha256': { hash: 'SHA-256', bits: 512 },
  pbkdf2: { hash: 'SHA-1', bits: 512 },
} as const;
type AlgorithmName = keyof typeof algorithms;

const CURRENT_ALGORITHM: AlgorithmName = 'pbkdf2-sha512';
const SALT_BYTES = 16;
/** Guards against a corrupt row turning one sign-in into minutes of CPU. */
const MAX_ITERATIONS = 10_000_000;
/** PBKDF2 pre-hashes long keys anyway; the bound keeps request bodies from feeding it megabytes. */
export const MAX_PASSWORD_LENGTH = 1024;

export interface ParsedPasswordHash {
  algorithm: AlgorithmName;
  iterations: number;
  salt: Uint8Array;
  hash: Uint8Array;
}

function toBase64(bytes: Uint8Array): string {
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary);
}

function fromBase64(text: string): Uint8Array {
  const binary = atob(text);
  const bytes = new Uint8Array(binary.length);
  for (let index = 0; index < binary.length; index++) bytes[index] = binary.charCodeAt(index);
  return bytes;
}

let derivations = 0;

/**
 * How many PBKDF2 derivations this process has started: lets a test prove that a refused sign-in cost no hashing,
 * whatever the machine's speed.
 */
export const passwordDerivationCount = () => derivations;

/** Every derivation takes one of the process's hashing slots; `admission` makes a sign-in give up instead of queueing long. */
async function derive(
  password: string,
  salt: Uint8Array,
  iterations: number,
  algorithm: AlgorithmName,
  admission?: HashAdmission,
): Promise<Uint8Array> {
  const { hash, bits } = algorithms[algorithm];
  return passwordHashSlots.run(async () => {
    derivations++;
    const key = await crypto.subtle.importKey('raw', encoder.encode(password), 'PBKDF2', false, ['deriveBits']);
    const derived = await crypto.subtle.deriveBits(
      { name: 'PBKDF2', hash, salt: salt as BufferSource, iterations },
      key,
      bits,
    );
    return new Uint8Array(derived);
  }, admission);
}

/** Hashes a password with a fresh random salt. */
export async function hashPassword(password: string, iterations: number): Promise<string> {
  if (!Number.isInteger(iterations) || iterations < 1 || iterations > MAX_ITERATIONS) {
    throw new RangeError(`password iterations must be an integer in 1..${MAX_ITERATIONS}`);
  }
  const salt = crypto.getRandomValues(new Uint8Array(SALT_BYTES));
  const hash = await derive(password, salt, iterations, CURRENT_ALGORITHM);
  return `${CURRENT_ALGORITHM}$${iterations}$${toBase64(salt)}$${toBase64(hash)}`;
}

/** Reads a stored hash; null when it is not in a format this module wrote or understands. */
export function parsePasswordHash(stored: string): ParsedPasswordHash | null {
  const parts = stored.split('$');
  if (parts.length !== 4) return null;
  const [algorithm, iterationsText, saltText, hashText] = parts as [string, string, string, string];
  if (!Object.hasOwn(algorithms, algorithm) || !/^\d{1,8}$/.test(iterationsText)) return null;
  const iterations = Number(iterationsText);
  if (iterations < 1 || iterations > MAX_ITERATIONS) return null;
  try {
    const salt = fromBase64(saltText);
    const hash = fromBase64(hashText);
    if (salt.length === 0 || hash.length === 0) return null;
    return { algorithm: algorithm as AlgorithmName, iterations, salt, hash };
  } catch {
    return null;
  }
}

/**
 * Checks a password against a stored hash in constant time; an unreadable hash never matches. Throws
 * PasswordHashingBusy when `admission` is given and no hashing slot frees up within it.
 */
export async function verifyPassword(password: string, stored: string, admission?: HashAdmission): Promise<boolean> {
  const parsed = parsePasswordHash(stored);
  if (!parsed) return false;
  const candidate = await derive(password, parsed.salt, parsed.iterations, parsed.algorithm, admission);
  return constantTimeEqualBytes(candidate, parsed.hash);
}

/** Whether a hash that just verified should be rewritten: older algorithm, or fewer iterations than configured now. */
export function passwordHashNeedsUpgrade(stored: string, iterations: number): boolean {
  const parsed = parsePasswordHash(stored);
  return !parsed || parsed.algorithm !== CURRENT_ALGORITHM || parsed.iterations < iterations;
}

const dummySalt = new Uint8Array(SALT_BYTES);

/** Spends the same work as a real check, so an unknown username answers as slowly as a wrong password. */
export async function burnPasswordCheck(password: string, iterations: number, admission?: HashAdmission): Promise<void> {
  await derive(password, dummySalt, iterations, CURRENT_ALGORITHM, admission);
}

/** Unambiguous characters (no 0/O, 1/l/I) so a printed password can be typed back. */
const PASSWORD_ALPHABET = 'ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789';

/** A random password of `length` characters (24 by default: about 140 bits). */
export function generatePassword(length = 24): string {
  let password = '';
  // Rejection sampling keeps every character equally likely.
  const limit = 256 - (256 % PASSWORD_ALPHABET.length);
  while (password.length < length) {
    for (const byte of crypto.getRandomValues(new Uint8Array(length * 2))) {
      if (byte < limit && password.length < length) password += PASSWORD_ALPHABET[byte % PASSWORD_ALPHABET.length];
    }
  }
  return password;
}
