/**
 * The files of DATA_DIR that a backup carries besides the database: everything but the embedded database itself (it
 * is in the SQL) and locks. Today that is the local agent's machine key, the first admin's generated password and the
 * copies of the shared secrets (the secret-box key, the client secret, the metrics token, the realm key); those copies
 * are also rows of service_secrets, and the database's value wins at start, so SQL alone keeps secrets decryptable.
 */
import { lstat, mkdir, readdir, readFile, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { DATA_DIR_MODE, DATA_FILE_MODE } from '../../files/disk-data-files.ts';

export interface DataDirFile {
  /** Relative to DATA_DIR, `/`-separated. */
  path: string;
  content: Buffer;
}

/** The database directory, its lock, and files being written or locked right now. */
const skipped = (path: string) => path === 'pglite' || path === 'pglite.lock' || /\.(lock|tmp)$/.test(path) || /\.partial-\d+$/.test(path);

export async function collectDataDirFiles(dataDir: string): Promise<DataDirFile[]> {
  const root = resolve(dataDir);
  const found: DataDirFile[] = [];
  const walk = async (dir: string): Promise<void> => {
    let names: string[];
    try {
      names = (await readdir(dir)).sort();
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') return;
      throw error;
    }
    for (const name of names) {
      const full = join(dir, name);
      const path = relative(root, full).split(sep).join('/');
      if (skipped(path)) continue;
      const info = await lstat(full);
      // A link or a socket is nothing the service wrote; a directory is walked.
      if (info.isDirectory()) await walk(full);
      else if (info.isFile()) found.push({ path, content: await readFile(full) });
    }
  };
  await walk(root);
  return found;
}

/** The absolute path of a backup's file under DATA_DIR; a path that would leave DATA_DIR is refused. */
export function dataDirPath(dataDir: string, path: string): string {
  const root = resolve(dataDir);
  const full = resolve(root, path);
  if (path.startsWith('/') || !full.startsWith(root + sep) || skipped(path)) throw new Error(`the backup names a file outside what it may restore: ${JSON.stringify(path)}`);
  return full;
}

/** Those of `paths` that exist under DATA_DIR already. */
export async function existingDataDirFiles(dataDir: string, paths: readonly string[]): Promise<string[]> {
  const existing: string[] = [];
  for (const path of paths) {
    try {
      await lstat(dataDirPath(dataDir, path));
      existing.push(path);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
    }
  }
  return existing;
}

/** Writes the files owner-only, as the service writes every file under DATA_DIR. */
export async function writeDataDirFiles(dataDir: string, files: readonly DataDirFile[]): Promise<void> {
  await mkdir(dataDir, { recursive: true, mode: DATA_DIR_MODE });
  for (const file of files) {
    const full = dataDirPath(dataDir, file.path);
    await mkdir(dirname(full), { recursive: true, mode: DATA_DIR_MODE });
    await writeFile(full, file.content, { mode: DATA_FILE_MODE });
  }
}
