/**
 * Builds @loadplane/plugin-kit into dist/: its two entries bundled with everything they import (core modules,
 * TypeBox) as ESM for node and bun, only node's built-ins and bun:test left outside; then the type declarations.
 * Run by `npm run build -w @loadplane/plugin-kit`, the repository's postinstall and `npm pack` (prepack).
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { buildDeclarations } from './build-declarations.ts';

const kitDir = import.meta.dir;
rmSync(join(kitDir, 'dist'), { recursive: true, force: true });

const result = await Bun.build({
  entrypoints: [join(kitDir, 'src/index.ts'), join(kitDir, 'src/testing.ts')],
  outdir: join(kitDir, 'dist'),
  target: 'node',
  format: 'esm',
  // One copy of what both entries share (the histogram, the load-tool contract), so a plugin's tests see the same classes.
  splitting: true,
  external: ['bun:test', 'node:*'],
});
if (!result.success) {
  for (const log of result.logs) console.error(log);
  process.exit(1);
}
buildDeclarations();
console.log(`@loadplane/plugin-kit: built ${result.outputs.length} modules and the type declarations into ${join(kitDir, 'dist')}`);
