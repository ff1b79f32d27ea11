/**
 * Rules for a workspace's environment variables: POSIX-style names, the reserved name families (reserved-env-names.ts)
 * and the size limits; shared by the service (a clear 400 at PUT) and the agent (which applies the same filter again,
 * and says in the run's log which variables it dropped).
 */
import { badRequest } from '../kernel/errors.ts';
import { reservedEnvRule } from './reserved-env-names.ts';

/** A POSIX environment name as shells accept it: a letter or underscore, then letters, digits, underscores. */
export const envKeyPattern = '^[A-Za-z_][A-Za-z0-9_]*$';
const keyRegex = new RegExp(envKeyPattern);
export const maxEnvKeyLength = 128;
/** 8 KiB per value: room for a PEM certificate; with the count below, at most ~800 KiB of environment (Linux caps argv + env near 2 MiB). */
export const maxEnvValueBytes = 8 * 1024;
export const maxEnvVarsPerWorkspace = 100;

/** Why `key` is not an environment name at all (empty, too long, not POSIX), or null when it is one. */
export function envKeyFormatProblem(key: string): string | null {
  if (key.length === 0) return 'key must not be empty';
  if (key.length > maxEnvKeyLength) return `key may be at most ${maxEnvKeyLength} characters`;
  if (!keyRegex.test(key)) return `key "${key}" is not an environment variable name: a letter or _, then letters, digits or _`;
  return null;
}

/**
 * Why `key` cannot be a workspace variable, or null when it can: malformed, or reserved by one of the families in
 * reserved-env-names.ts (what the agent sets, LOADPLANE_*, and what the C library, the loader, a shell, an
 * interpreter or an engine reads); the message names the rule.
 */
export function envKeyProblem(key: string): string | null {
  const format = envKeyFormatProblem(key);
  if (format) return format;
  const rule = reservedEnvRule(key);
  return rule ? `key ${key} is reserved: ${rule}` : null;
}

export function checkEnvKey(key: string): string {
  const problem = envKeyProblem(key);
  if (problem) throw badRequest(problem, { field: 'key' });
  return key;
}

export function checkEnvValue(value: string): string {
  const bytes = new TextEncoder().encode(value).byteLength;
  if (bytes > maxEnvValueBytes) throw badRequest(`value is ${bytes} bytes; the limit is ${maxEnvValueBytes} bytes`, { field: 'value' });
  // A NUL cannot be passed in a process environment (the C string would end there).
  if (value.includes('\0')) throw badRequest('value must not contain a NUL character', { field: 'value' });
  return value;
}

/** The workspace variables a tool may receive: reserved or malformed names dropped (the agent does not trust the wire). */
export function toolEnvOf(vars: Readonly<Record<string, string>> | undefined): Record<string, string> {
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(vars ?? {})) {
    if (droppedBecause(key, value) === null) env[key] = value;
  }
  return env;
}

/**
 * The variables toolEnvOf drops, each with why, for the run's log: a name stored before a rule reserved it (a
 * PYTHONHOME from last year) must not break runs, nor vanish without a word.
 */
export function droppedToolEnv(vars: Readonly<Record<string, string>> | undefined): { key: string; reason: string }[] {
  const dropped: { key: string; reason: string }[] = [];
  for (const [key, value] of Object.entries(vars ?? {})) {
    const reason = droppedBecause(key, value);
    // A malformed name is quoted and cut: it came over the wire, and goes into a log line.
    if (reason !== null) dropped.push({ key: envKeyFormatProblem(key) ? JSON.stringify(key.slice(0, 64)) : key, reason });
  }
  return dropped;
}

function droppedBecause(key: string, value: unknown): string | null {
  if (typeof value !== 'string') return 'its value is not a string';
  if (envKeyFormatProblem(key)) return `not an environment variable name of at most ${maxEnvKeyLength} characters`;
  const rule = reservedEnvRule(key);
  if (rule) return rule;
  // A NUL cannot be passed in a process environment.
  return value.includes('\0') ? 'its value holds a NUL character' : null;
}
