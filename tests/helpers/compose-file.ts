/** compose.yaml as compose reads it: parsed, with `${VAR:-default}` interpolated in every string from a given environment. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { parse } from 'yaml';
import { repoRoot } from './service-process.ts';

export interface ComposeService {
  image?: string;
  build?: { context: string; dockerfile?: string; args?: Record<string, string> };
  command?: string[];
  entrypoint?: string[];
  environment?: Record<string, string>;
  volumes?: string[];
  networks?: string[];
  ports?: string[];
  hostname?: string;
  init?: boolean;
  user?: string;
  stop_grace_period?: string;
  security_opt?: string[];
  cap_add?: string[];
  privileged?: boolean;
  depends_on?: Record<string, { condition: string }>;
  healthcheck?: { test: string[] | string; disable?: boolean };
}

export interface ComposeFile {
  services: Record<string, ComposeService>;
  volumes: Record<string, unknown>;
  networks: Record<string, unknown>;
}

/**
 * Compose's interpolation (https://docs.docker.com/compose/how-tos/environment-variables/variable-interpolation/):
 * `$$` is a dollar; `${X:-d}` is d when X is unset or empty, `${X-d}` only when unset; `${X:?msg}` and `${X?msg}` fail
 * without X; `${X}` and `$X` are X or empty.
 */
export function interpolate(text: string, env: Record<string, string | undefined>): string {
  return text.replace(/\$(\$|\{([A-Za-z_][A-Za-z0-9_]*)(?:(:?)([-?])([^}]*))?\}|([A-Za-z_][A-Za-z0-9_]*))/g, (_match, _all, braced, colon, kind, operand, bare) => {
    if (_all === '$') return '$';
    const name = (braced ?? bare) as string;
    const value = env[name];
    const missing = value === undefined || (colon === ':' && value === '');
    if (kind === '-') return missing ? interpolate(operand as string, env) : value!;
    if (kind === '?') {
      if (missing) throw new Error(`compose variable ${name} is required: ${operand}`);
      return value!;
    }
    return value ?? '';
  });
}

function interpolateAll(node: unknown, env: Record<string, string | undefined>): unknown {
  if (typeof node === 'string') return interpolate(node, env);
  if (Array.isArray(node)) return node.map((item) => interpolateAll(item, env));
  if (node && typeof node === 'object') return Object.fromEntries(Object.entries(node).map(([key, value]) => [key, interpolateAll(value, env)]));
  return node;
}

/** `environment` and `networks` as maps and lists the way the file may write them, normalised. */
function normalise(service: Record<string, unknown>): ComposeService {
  const environment = service.environment;
  if (Array.isArray(environment)) {
    service.environment = Object.fromEntries(environment.map((entry: string) => [entry.split('=')[0], entry.slice(entry.indexOf('=') + 1)]));
  } else if (environment && typeof environment === 'object') {
    service.environment = Object.fromEntries(Object.entries(environment).map(([key, value]) => [key, String(value ?? '')]));
  }
  if (service.networks && !Array.isArray(service.networks)) service.networks = Object.keys(service.networks);
  for (const key of ['command', 'entrypoint'] as const) {
    if (typeof service[key] === 'string') service[key] = (service[key] as string).split(/\s+/).filter(Boolean);
  }
  return service as ComposeService;
}

/** The repository's compose.yaml, interpolated from `env` (default: none set, so every `${X:-default}` is its default). */
export function readComposeFile(env: Record<string, string | undefined> = {}, path = join(repoRoot, 'compose.yaml')): ComposeFile {
  const raw = parse(readFileSync(path, 'utf8')) as { services: Record<string, Record<string, unknown>>; volumes?: Record<string, unknown>; networks?: Record<string, unknown> };
  const file = interpolateAll(raw, env) as typeof raw;
  return {
    services: Object.fromEntries(Object.entries(file.services).map(([name, service]) => [name, normalise(service)])),
    volumes: file.volumes ?? {},
    networks: file.networks ?? {},
  };
}

/** A service's volumes as `{ source, target, readOnly }`; a source starting with `.` or `/` is a bind mount. */
export function mountsOf(service: ComposeService): { source: string; target: string; readOnly: boolean; named: boolean }[] {
  return (service.volumes ?? []).map((entry) => {
    const [source = '', target = '', mode = 'rw'] = entry.split(':');
    return { source, target, readOnly: mode.split(',').includes('ro'), named: !/^[./~]/.test(source) };
  });
}
