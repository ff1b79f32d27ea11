/**
 * The agent host's engine locator: finds a load tool's engine the way its plugin declares (its environment variable,
 * then PATH, then the engines directory `scripts/install-engines` fills), reads its version, and says how to install
 * what is missing. One implementation for every tool: no tool is named here.
 */
import { execFile } from 'node:child_process';
import { accessSync, constants, readFileSync, realpathSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import type { EngineLocator, EngineSource, EngineSpec, LocatedEngine } from '../../core/ports/engine-locator.ts';
import type { ProgramLookup } from '../../core/ports/program-lookup.ts';

/** Where `scripts/install-engines` keeps the engines: `~/.cache/loadplane` (readable inside the tool sandbox). */
export const enginesDir = () => join(homedir(), '.cache/loadplane');

/** The command that installs an engine, as the README and the agent's hints give it. */
export const installCommand = (engine: string) => `bash scripts/install-engines ${engine}`;

function isExecutableFile(path: string): boolean {
  try {
    accessSync(path, constants.X_OK);
    return statSync(path).isFile();
  } catch {
    return false;
  }
}

/** An executable by name on `searchPath`, or a path (absolute, or relative to the working directory). */
export function findProgram(program: string, searchPath: string): string | null {
  if (!program) return null;
  if (program.includes('/')) return isExecutableFile(program) ? resolve(program) : null;
  for (const dir of searchPath.split(delimiter)) {
    if (dir && isExecutableFile(join(dir, program))) return join(dir, program);
  }
  return null;
}

/** The program-lookup port on this machine's PATH (plugins check their helper programs with it). */
export function createPathLookup(searchPath: string): ProgramLookup & { foundSince(): boolean } {
  const misses = new Set<string>();
  const lookup = async (program: string) => {
    const found = findProgram(program, searchPath);
    if (!found) misses.add(program);
    return found;
  };
  // A program not found then and there now: cheap file checks, for the agent's look for engines installed since.
  return Object.assign(lookup, { foundSince: () => [...misses].some((program) => findProgram(program, searchPath) !== null) });
}

export interface EngineLookupOptions {
  /** The agent's environment: the engine's variable and PATH are read from it. */
  env: Record<string, string | undefined>;
  /** Default: `~/.cache/loadplane`. */
  dir?: string;
}

/** Where the engine is, without its version (synchronous; benchmarks and tests use it too). */
export function findEngine(spec: EngineSpec, options: EngineLookupOptions): { path: string; source: EngineSource } | { missing: string } {
  const dir = options.dir ?? enginesDir();
  const searchPath = options.env.PATH ?? '';
  const tried: string[] = [];
  const named = spec.envVar ? options.env[spec.envVar]?.trim() : undefined;
  if (spec.envVar && named) {
    // An explicit setting that points nowhere is reported, not silently replaced by another copy of the engine.
    const path = findProgram(named, searchPath);
    return path ? { path, source: 'env' } : { missing: `${spec.envVar}=${named} is not an executable file` };
  }
  if (spec.envVar) tried.push(`${spec.envVar} is not set`);
  const cachedCandidates = (spec.cached ?? [join('bin', spec.program)]).map((relative) => (isAbsolute(relative) ? relative : join(dir, relative)));
  const onPath = findProgram(spec.program, searchPath);
  // PATH may lead to the installer's own copy (~/.cache/loadplane/bin on PATH): that is the cached engine, whose
  // version file describes it.
  if (onPath) return { path: onPath, source: cachedCandidates.some((candidate) => sameFile(candidate, onPath)) ? 'cache' : 'path' };
  tried.push(`no ${spec.program} on PATH`);
  for (const candidate of cachedCandidates) {
    if (isExecutableFile(candidate)) return { path: candidate, source: 'cache' };
    tried.push(`nothing at ${tilde(candidate)}`);
  }
  return { missing: tried.join(', ') };
}

function sameFile(a: string, b: string): boolean {
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}

function tilde(path: string): string {
  const home = homedir();
  return home && path.startsWith(`${home}/`) ? `~${path.slice(home.length)}` : path;
}

function firstMatch(text: string, pattern: string | undefined): string | null {
  if (pattern) {
    const match = new RegExp(pattern, 'm').exec(text);
    if (!match) return null;
    return (match[1] ?? match[0]).trim().slice(0, 100) || null;
  }
  const line = text.split('\n').find((l) => l.trim() !== '');
  return line ? line.trim().slice(0, 100) : null;
}

function runForVersion(path: string, args: readonly string[], env: Record<string, string | undefined>): Promise<string> {
  return new Promise((done) => {
    execFile(path, [...args], { timeout: 10_000, env: { PATH: env.PATH ?? '/usr/bin:/bin', HOME: env.HOME ?? '/tmp', LANG: 'C.UTF-8' } }, (_error, stdout, stderr) =>
      done(`${String(stdout)}\n${String(stderr)}`),
    );
  });
}

async function readVersion(spec: EngineSpec, path: string, source: EngineSource, options: EngineLookupOptions): Promise<string | null> {
  const how = spec.version;
  if (!how) return null;
  if ('args' in how) return firstMatch(await runForVersion(path, how.args, options.env), how.pattern);
  // A version file describes the engine the install script put there, not a copy found elsewhere.
  if (source !== 'cache') return null;
  try {
    return firstMatch(readFileSync(join(options.dir ?? enginesDir(), how.file), 'utf8'), how.pattern);
  } catch {
    return null;
  }
}

/** Locates an engine: found (path, version, where) or missing (where it was looked for, the install command). */
export async function locateEngineOnHost(spec: EngineSpec, options: EngineLookupOptions): Promise<LocatedEngine> {
  const found = findEngine(spec, options);
  if ('missing' in found) {
    const how = [spec.install ? `install it with \`${installCommand(spec.install)}\`` : null, spec.hint ?? null].filter(Boolean).join(', or ');
    const variable = spec.envVar && !options.env[spec.envVar] ? `, or set ${spec.envVar} to its path` : '';
    return {
      found: false,
      name: spec.name,
      path: spec.program,
      reason: `${spec.name} not found (${found.missing})${how ? `: ${how}${variable}` : ''}`,
      install: spec.install ? installCommand(spec.install) : null,
    };
  }
  return { found: true, name: spec.name, path: found.path, version: await readVersion(spec, found.path, found.source, options), source: found.source };
}

/**
 * The locator an agent provides to its plugins; it remembers what it found, for the sandbox's read-only list, and what
 * it did not, so the agent can look for those again (`foundSince()`: one of them is there now; no engine is run to tell).
 */
export function createEngineLocator(options: EngineLookupOptions): EngineLocator & { found(): string[]; foundSince(): boolean } {
  const paths = new Set<string>();
  const misses = new Map<string, EngineSpec>();
  return {
    async locate(spec) {
      const located = await locateEngineOnHost(spec, options);
      if (located.found) paths.add(located.path);
      else misses.set(JSON.stringify(spec), spec);
      return located;
    },
    found: () => [...paths],
    foundSince: () => [...misses.values()].some((spec) => !('missing' in findEngine(spec, options))),
  };
}
