/** StaticAssets read from installed packages (swagger-ui-dist) and the built admin UI, never outside their roots. */
import { readFile } from 'node:fs/promises';
import { dirname, join, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import type { StaticAssets } from '../../core/ports/static-assets.ts';

export function createPackageStaticAssets(roots?: Partial<Record<'swagger-ui' | 'ui', string>>): StaticAssets {
  const directories = {
    'swagger-ui': roots?.['swagger-ui'] ?? dirname(fileURLToPath(import.meta.resolve('swagger-ui-dist/package.json'))),
    ui: roots?.ui ?? fileURLToPath(new URL('../../ui/dist', import.meta.url)),
  };
  return {
    async read(root, path) {
      const base = resolve(directories[root]);
      const file = resolve(join(base, path));
      if (!file.startsWith(base + sep)) return null;
      try {
        return new Uint8Array(await readFile(file));
      } catch {
        return null;
      }
    },
  };
}
