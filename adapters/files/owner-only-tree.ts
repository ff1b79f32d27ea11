/**
 * Makes a directory tree readable by its owner only (directories 0700, files 0600), as everything under DATA_DIR is.
 * PGlite writes its files with the process umask (0644 under the usual 022); the 0700 directory is what keeps later
 * files private, the walk mends the ones an earlier version left open.
 */
import { chmod, lstat, mkdir, readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { DATA_DIR_MODE, DATA_FILE_MODE } from './disk-data-files.ts';

export async function ownerOnlyTree(root: string): Promise<void> {
  await mkdir(root, { recursive: true, mode: DATA_DIR_MODE });
  await tightenTree(root);
}

async function tightenTree(path: string): Promise<void> {
  const info = await lstat(path);
  if (info.isSymbolicLink()) return;
  const mode = info.isDirectory() ? DATA_DIR_MODE : DATA_FILE_MODE;
  if ((info.mode & 0o777 & ~mode) !== 0) await chmod(path, mode);
  if (info.isDirectory()) for (const name of await readdir(path)) await tightenTree(join(path, name));
}
