/**
 * In a load-tool plugin's setup: locate its engine, let a configured binary override it, see whether that binary has
 * Loadplane's extension, build the tool and provide it, with `available()` saying why when there is nothing to run.
 * The steps every engine-backed plugin repeats.
 */
import type { AnyCapabilityToken, CapabilityToken, Resolved } from '../kernel/define-capability.ts';
import { engineAvailability, type EngineSpec, type LocatedEngine, locateEngine } from '../ports/engine-locator.ts';
import { type ProgramLookup, programLookupPort } from '../ports/program-lookup.ts';
import { type LoadTool, loadToolCapability } from './load-tool.ts';

/** What `create` gets: what to run, and what the host knows about it. */
export interface EngineChoice {
  /** The configured binary when it is not the default, else the located engine's path (the bare program name when not found). */
  binary: string;
  /** The host's program lookup (agents have one; the control plane may not), for `available()` to check `binary`. */
  which: ProgramLookup | undefined;
  /** The located engine's version, only when the binary run is that engine (a configured one's is unknown). */
  version: string | undefined;
  /** The locator's answer, as it is. */
  engine: LocatedEngine;
  /** Something to run: the engine was found, or a binary was configured. When false, `available()` gives the locator's reason. */
  usable: boolean;
  /** Whether `binary` has the extension `options.extension` names (false without that option, or with nothing to run). */
  extension: boolean;
}

export interface EngineToolOptions {
  /** The plugin's configured binary (its `binary` config, say); without one, the located engine is always run. */
  configuredBinary?: string;
  /** That setting's default: when configured to it, the located engine is run. */
  defaultBinary?: string;
  /**
   * An extension of Loadplane's own build of the engine (an output, a listener) that the tool uses when the chosen
   * binary has it: `probe(binary)` is located like an engine, and the binary has it when the version read is `name`.
   */
  extension?: { probe(binary: string): EngineSpec; name: string };
  /** Builds the tool (may be async). */
  create(choice: EngineChoice): LoadTool | Promise<LoadTool>;
}

/** The kernel context a plugin's setup gets, as far as this needs it. */
interface SetupContext {
  has(capability: AnyCapabilityToken): boolean;
  use<Token extends AnyCapabilityToken>(capability: Token): Resolved<Token>;
  provide<T>(capability: CapabilityToken<T>, implementation: T): void;
}

/** Provides the load tool `options.create` builds for the engine `spec` as this host finds it; returns it as provided. */
export async function provideEngineTool(ctx: SetupContext, spec: EngineSpec, options: EngineToolOptions): Promise<LoadTool> {
  const which = ctx.has(programLookupPort) ? ctx.use(programLookupPort) : undefined;
  const engine = await locateEngine(ctx, spec);
  // A binary other than the default is the operator's choice and wins over the located one.
  const { configuredBinary, defaultBinary } = options;
  const binary = configuredBinary !== undefined && configuredBinary !== defaultBinary ? configuredBinary : engine.path;
  const version = engine.found && binary === engine.path ? (engine.version ?? undefined) : undefined;
  const usable = engine.found || binary !== engine.path;
  const probe = usable && options.extension ? await locateEngine(ctx, options.extension.probe(binary)) : null;
  const extension = probe?.found === true && probe.version === options.extension?.name;
  const tool = await options.create({ binary, which, version, engine, usable, extension });
  // Not found here (and none configured): the locator's answer says where it looked and how to install it.
  const provided = usable ? tool : { ...tool, available: async () => engineAvailability(engine) };
  ctx.provide(loadToolCapability, provided);
  return provided;
}
