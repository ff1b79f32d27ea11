/**
 * The module-runtime port: how an agent starts a module that a plugin ships (an engine written in TypeScript, such as
 * the built-in `http` tool's) as a process of its own, run by the agent's own runtime. A plugin is runtime-agnostic and
 * cannot name that runtime's binary (or know that it is a single executable); the agent host can.
 */
import { defineCapability } from '../kernel/define-capability.ts';

export interface ModuleRuntime {
  /**
   * The argv that runs `module` as a process; the module's own arguments follow it. `module` is the module's file URL,
   * found the runtime-agnostic way: `new URL('./engine/main.ts', import.meta.url)`.
   *
   * Ask in the plugin's setup: the agent makes what the answer runs (the runtime and the module's folder) readable
   * inside the tool sandbox, which opens after setup. The module may import only files of its own folder (no npm
   * package, nothing of Loadplane): that folder is all a sandboxed run can read of the plugin.
   *
   * `id` (`<plugin>/<module>`, e.g. `load-tool-http/engine`) names the module where there are no module files: a
   * single executable (`bun build --compile`) bundles its built-in plugins' modules and runs them by that id.
   */
  command(module: URL, id?: string): string[];
}

export const moduleRuntimePort = defineCapability<ModuleRuntime>({ id: 'port.moduleRuntime', cardinality: 'one' });
