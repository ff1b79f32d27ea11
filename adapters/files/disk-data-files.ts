/** DataFiles on disk under DATA_DIR: atomic writes (temp file + rename), secrets with mode 0600. */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { DataFiles } from '../../core/ports/data-files.ts';

export function createDiskDataFiles(dataDir: string): DataFiles {
  const root = resolve(dataDir);
  const pathOf = (name: string) => {
    const path = resolve(join(root, name));
    if (!path.startsWith(root + sep)) throw new Error(`data file name escapes DATA_DIR: ${name}`);
    return path;
  };
  return {
    async read(name) {
      try {
        return await readFile(pathOf(name), 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async write(name, content, options) {
      const path = pathOf(name);
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${crypto.randomUUID()}.tmp`;
      await writeFile(temporary, content, { mode: options?.secret ? 0o600 : 0o644 });
      await rename(temporary, path);
    },
  };
}
