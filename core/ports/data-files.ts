/** The data-files port: small files under DATA_DIR (generated keys, secrets) that must survive restarts. */
import { defineCapability } from '../kernel/define-capability.ts';

export interface DataFiles {
  read(name: string): Promise<string | null>;
  /** Writes atomically; `secret` files are readable by the service's user only. */
  write(name: string, content: string, options?: { secret?: boolean }): Promise<void>;
  /** Deletes the file; true when there was one. A secret that has served its purpose must not linger on disk. */
  remove(name: string): Promise<boolean>;
}

export const dataFilesPort = defineCapability<DataFiles>({ id: 'port.dataFiles', cardinality: 'one' });

/** An in-memory DataFiles, for the embedded mode's tests and for hosts without a disk. */
export function createMemoryDataFiles(initial: Record<string, string> = {}): DataFiles {
  const files = new Map(Object.entries(initial));
  return {
    async read(name) {
      return files.get(name) ?? null;
    },
    async write(name, content) {
      files.set(name, content);
    },
    async remove(name) {
      return files.delete(name);
    },
  };
}
