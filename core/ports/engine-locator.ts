/**
 * The engine-locator port: a load-tool plugin declares how its engine is found (an environment variable, a program on
 * PATH, a place under the engines directory where `scripts/install-engines` puts it, how to read its version); the
 * agent host looks for it on its machine and hands back where it is, or why it is missing and how to install it.
 */
import { defineCapability } from '../kernel/define-capability.ts';
import type { AnyCapabilityToken, Resolved } from '../kernel/define-capability.ts';

export interface EngineSpec {
  /** The engine's name in messages, e.g. `k6`, `JMeter`. */
  name: string;
  /** The executable's file name, looked up on PATH and (by default) as `bin/<program>` under the engines directory. */
  program: string;
  /** An environment variable that names the executable (a path, or a program on PATH); checked first, e.g. `K6_BIN`. */
  envVar?: string;
  /**
   * Paths relative to the engines directory (`~/.cache/loadplane`), tried after PATH, in order. Default: `bin/<program>`.
   * Where an install script keeps a whole distribution, name its launcher: `jmeter/bin/jmeter`.
   */
  cached?: readonly string[];
  /**
   * How to read the version. `args`: run the engine with these arguments (10 s at most) and take the first group of
   * `pattern` (a regular expression) from its output, or its first line. `file`: read a file relative to the engines
   * directory (what an install script wrote; for engines without a version flag or slow to start), only when the
   * engine was found there. Without it the version is unknown (null).
   */
  version?: { args: readonly string[]; pattern?: string } | { file: string; pattern?: string };
  /** The argument of `bash scripts/install-engines <install>` that installs this engine, for the missing-engine hint. */
  install?: string;
  /** How to get the engine when there is no installer (or besides it), e.g. `pip install locust`. */
  hint?: string;
}

/** Where the engine was found: the environment variable, PATH, or the engines directory. */
export type EngineSource = 'env' | 'path' | 'cache';

export type LocatedEngine =
  | { found: true; name: string; path: string; version: string | null; source: EngineSource }
  /** `path` is the bare program name then, so a command still names it; `reason` says where it was looked for and how to install it. */
  | { found: false; name: string; path: string; reason: string; install: string | null };

export interface EngineLocator {
  locate(spec: EngineSpec): Promise<LocatedEngine>;
}

export const engineLocatorPort = defineCapability<EngineLocator>({ id: 'port.engineLocator', cardinality: 'one' });

/** The kernel context a plugin's setup gets, as far as locating needs it. */
interface PortAccess {
  has(capability: AnyCapabilityToken): boolean;
  use<Token extends AnyCapabilityToken>(capability: Token): Resolved<Token>;
}

/**
 * In a load-tool plugin's setup: the engine as this host found it. On an agent the host's locator answers; on the
 * control plane (which runs no engine, so provides no locator) the answer is the bare program name, not found.
 */
export async function locateEngine(ctx: PortAccess, spec: EngineSpec): Promise<LocatedEngine> {
  if (!ctx.has(engineLocatorPort)) {
    return { found: false, name: spec.name, path: spec.program, reason: `${spec.name} is not looked for on this host (no engine locator)`, install: spec.install ?? null };
  }
  return ctx.use(engineLocatorPort).locate(spec);
}

/** A load tool's `available()` answer for a located engine: ok with its version, or the reason with the install hint. */
export function engineAvailability(engine: LocatedEngine): { ok: true; version?: string } | { ok: false; reason: string } {
  if (!engine.found) return { ok: false, reason: engine.reason };
  return engine.version ? { ok: true, version: engine.version } : { ok: true };
}
