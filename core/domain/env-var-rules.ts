/**
 * Rules for a workspace's environment variables: POSIX-style names, the names a tool's environment keeps for itself,
 * and the size limits; shared by the service (a clear 400 at PUT) and the agent (which applies the same filter again).
 */
import { badRequest } from '../kernel/errors.ts';

/** A POSIX environment name as shells accept it: a letter or underscore, then letters, digits, underscores. */
export const envKeyPattern = '^[A-Za-z_][A-Za-z0-9_]*$';
const keyRegex = new RegExp(envKeyPattern);
export const maxEnvKeyLength = 128;
/** 8 KiB per value: room for a PEM certificate; with the count below, at most ~800 KiB of environment (Linux caps argv + env near 2 MiB). */
export const maxEnvValueBytes = 8 * 1024;
export const maxEnvVarsPerWorkspace = 100;

/**
 * Names a workspace may not set. The agent sets PATH, HOME (the sandbox's work directory), LANG and TZ itself;
 * LOADPLANE_* belong to the service; loader and interpreter hooks (LD_*, DYLD_*, BASH_ENV, ENV, JAVA_TOOL_OPTIONS ...)
 * would run code inside tools whose scripts cannot otherwise (a k6 script is JavaScript in k6's own VM).
 */
const reservedNames = new Set([
  'PATH',
  'HOME',
  'LANG',
  'TZ',
  'SHELL',
  'USER',
  'LOGNAME',
  'PWD',
  'IFS',
  'BASH_ENV',
  'ENV',
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'NODE_OPTIONS',
  'PYTHONSTARTUP',
  'PYTHONPATH',
  'PERL5OPT',
  'RUBYOPT',
]);
const reservedPrefixes = ['LOADPLANE_', 'LD_', 'DYLD_', 'BASH_FUNC_'];

/** Why `key` cannot be a workspace variable, or null when it can. */
export function envKeyProblem(key: string): string | null {
  if (key.length === 0) return 'key must not be empty';
  if (key.length > maxEnvKeyLength) return `key may be at most ${maxEnvKeyLength} characters`;
  if (!keyRegex.test(key)) return `key "${key}" is not an environment variable name: a letter or _, then letters, digits or _`;
  const upper = key.toUpperCase();
  if (reservedNames.has(upper)) return `key ${key} is set by the agent itself and cannot be overridden`;
  const prefix = reservedPrefixes.find((p) => upper.startsWith(p));
  if (prefix) return `keys starting with ${prefix} are reserved`;
  return null;
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
    if (typeof value === 'string' && envKeyProblem(key) === null && !value.includes('\0')) env[key] = value;
  }
  return env;
}
