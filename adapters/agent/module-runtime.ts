/**
 * The agent host's module runtime (core/ports/module-runtime.ts): a plugin's module runs as `<this runtime> <module>`,
 * and the host remembers what it handed out, so the tool sandbox lets runs read the runtime and the modules' folders.
 *
 * Today the runtime is the Bun binary running the agent (`process.execPath`) and the module a file beside its plugin.
 * A single executable built with `bun build --compile` has no module files on disk: there `command()` answers its hidden
 * subcommand (`[process.execPath, '__module', <module id>]`, the module bundled in), and `readable()` the executable
 * alone; plugins do not change.
 */
import { dirname } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { ModuleRuntime } from '../../core/ports/module-runtime.ts';

export interface HostModuleRuntime extends ModuleRuntime {
  /** What runs need to read: the runtime's binary and the folder of every module asked for so far. */
  readable(): string[];
}

/** Whether this process is a single executable made by `bun build --compile` (its modules live in `/$bunfs/`). */
export const isSingleExecutable = () => (process.argv[1] ?? '').startsWith('/$bunfs/');

export function createModuleRuntime(runtime: string = process.execPath, singleExecutable = isSingleExecutable()): HostModuleRuntime {
  const folders = new Set<string>();
  if (singleExecutable) {
    return {
      // The module is bundled into this executable: its hidden subcommand runs it by id (adapters/runtime/bun/loadplane.ts).
      command(module, id) {
        if (!id) throw new Error(`${module.href} has no id, so this single executable cannot run it: run the agent from a checkout`);
        return [runtime, '__module', id];
      },
      readable: () => [runtime],
    };
  }
  return {
    command(module) {
      if (module.protocol !== 'file:') throw new Error(`a plugin module must be a file to run as a process, got ${module.href}`);
      const path = fileURLToPath(module);
      folders.add(dirname(path));
      // No auto-install: a work directory has no node_modules, and a module must never fetch packages on a generator.
      return [runtime, '--no-install', path];
    },
    readable: () => [runtime, ...folders],
  };
}
