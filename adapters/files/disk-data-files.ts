/** DataFiles on disk under DATA_DIR: atomic writes (temp file + rename); every file 0600 and every directory 0700, secret or not. */
import { chmod, mkdir, readFile, rename, rm, stat, writeFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import type { DataFiles } from '../../core/ports/data-files.ts';

/** Owner only. Everything DATA_DIR holds is key material or the database; nobody else on the machine needs it. */
export const DATA_FILE_MODE = 0o600;
export const DATA_DIR_MODE = 0o700;

/** Tightens a path that an older version, a restored backup or a loose umask left readable by others. */
async function tighten(path: string, mode: number): Promise<void> {
  try {
    const current = (await stat(path)).mode & 0o777;
    if ((current & ~mode) !== 0) await chmod(path, mode);
  } catch (error) {
    // Gone (a race with removal) or not ours to change (a mount owned by another user): the write itself still works.
    const code = (error as NodeJS.ErrnoException).code;
    if (code !== 'ENOENT' && code !== 'EPERM') throw error;
  }
}

export function createDiskDataFiles(dataDir: string): DataFiles {
  const root = resolve(dataDir);
  const pathOf = (name: string) => {
    const path = resolve(join(root, name));
    if (!path.startsWith(root + sep)) throw new Error(`data file name escapes DATA_DIR: ${name}`);
    return path;
  };
  /** DATA_DIR and every directory between it and the file: 0700. */
  const tightenDirectories = async (path: string) => {
    for (let directory = dirname(path); directory.startsWith(root); directory = dirname(directory)) {
      await tighten(directory, DATA_DIR_MODE);
      if (directory === root) break;
    }
  };
  return {
    async read(name) {
      const path = pathOf(name);
      let content: string;
      try {
        content = await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
      await tighten(path, DATA_FILE_MODE);
      await tightenDirectories(path);
      return content;
    },
    async write(name, content) {
      const path = pathOf(name);
      await mkdir(dirname(path), { recursive: true, mode: DATA_DIR_MODE });
      await tightenDirectories(path);
      // Created with its final mode: there is no moment at which the content is readable by others.
      const temporary = `${path}.${crypto.randomUUID()}.tmp`;
      await writeFile(temporary, content, { mode: DATA_FILE_MODE });
      await rename(temporary, path);
    },
    async remove(name) {
      const path = pathOf(name);
      try {
        await stat(path);
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return false;
        throw error;
      }
      await rm(path, { force: true });
      return true;
    },
  };
}
