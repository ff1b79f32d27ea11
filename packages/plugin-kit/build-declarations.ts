/**
 * The kit's type declarations, self-contained: tsc emits them for the entries and the core modules they reach
 * (dist/types mirrors the repository), TypeBox's own declarations are copied in beside them (the kit bundles TypeBox's
 * code, so its users have no TypeBox package to take the types from), and a check refuses any other package name.
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, relative } from 'node:path';

const kitDir = import.meta.dir;
const typesDir = join(kitDir, 'dist/types');
const vendorDir = join(typesDir, 'vendor/typebox');
const require = createRequire(join(kitDir, 'package.json'));

function filesUnder(dir: string, suffix: string): string[] {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' }).filter((file) => file.endsWith(suffix)).map((file) => join(dir, file));
}

/** The module specifiers a declaration file imports or re-exports (statements and `import("...")` types). */
function specifiersOf(source: string): string[] {
  const statements = source.matchAll(/^\s*(?:import|export)\b[^;]*?\bfrom\s*['"]([^'"]+)['"]/gm);
  const types = source.matchAll(/\bimport\(\s*['"]([^'"]+)['"]\s*\)/g);
  return [...statements, ...types].map((match) => match[1]!);
}

/** The declaration file a relative specifier names, as TypeScript resolves it (`./x.ts` and `./x.js` to x.d.ts). */
function declarationOf(from: string, specifier: string): string {
  const base = join(dirname(from), specifier);
  const candidates = [base.replace(/\.(ts|js)$/, '.d.ts'), base.replace(/\.mjs$/, '.d.mts'), `${base}.d.ts`, join(base, 'index.d.ts')];
  const found = candidates.find((candidate) => /\.d\.m?ts$/.test(candidate) && existsSync(candidate));
  if (!found) throw new Error(`${relative(kitDir, from)}: no declarations for "${specifier}"`);
  return found;
}

/** Every declaration file the entries reach; tsc also emits the rest of its program, which no user of the kit sees. */
function reachableFrom(entries: string[]): Set<string> {
  const seen = new Set<string>();
  const queue = [...entries];
  while (queue.length > 0) {
    const file = queue.pop()!;
    if (seen.has(file)) continue;
    seen.add(file);
    for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) if (specifier.startsWith('.')) queue.push(declarationOf(file, specifier));
  }
  return seen;
}

export function buildDeclarations(): void {
  const tsc = spawnSync(process.execPath, [require.resolve('typescript/bin/tsc'), '-p', join(kitDir, 'tsconfig.build.json')], { stdio: 'inherit' });
  if (tsc.status !== 0) throw new Error(`tsc failed (exit ${tsc.status})`);

  // TypeBox's ESM declarations: the root index re-exports type/ only, which imports nothing outside itself.
  const typebox = join(dirname(require.resolve('@sinclair/typebox/package.json')), 'build/esm');
  mkdirSync(vendorDir, { recursive: true });
  cpSync(join(typebox, 'index.d.mts'), join(vendorDir, 'index.d.mts'));
  for (const file of filesUnder(join(typebox, 'type'), '.d.mts')) {
    mkdirSync(dirname(join(vendorDir, relative(typebox, file))), { recursive: true });
    cpSync(file, join(vendorDir, relative(typebox, file)));
  }
  cpSync(join(typebox, '../../license'), join(vendorDir, 'LICENSE'));

  // The entries' declarations where package.json's exports say.
  const entries = ['index', 'testing'].map((entry) => join(kitDir, `dist/${entry}.d.ts`));
  for (const entry of entries) writeFileSync(entry, `export * from './types/packages/plugin-kit/src/${entry.endsWith('index.d.ts') ? 'index' : 'testing'}.js';\n`);

  // TypeBox by its copy here; then only what a user's compiler reaches stays, and it must name no package.
  for (const file of filesUnder(typesDir, '.d.ts')) {
    const toTypebox = relative(dirname(file), join(vendorDir, 'index.mjs'));
    writeFileSync(file, readFileSync(file, 'utf8').replace(/(['"])@sinclair\/typebox\1/g, `'${toTypebox.startsWith('.') ? toTypebox : `./${toTypebox}`}'`));
  }
  const reachable = reachableFrom(entries);
  for (const file of [...filesUnder(typesDir, '.d.ts'), ...filesUnder(typesDir, '.d.mts')]) {
    if (!reachable.has(file)) rmSync(file);
  }
  const problems = [...reachable].flatMap((file) =>
    specifiersOf(readFileSync(file, 'utf8'))
      .filter((specifier) => !specifier.startsWith('.') && !/^(node|bun):/.test(specifier))
      .map((specifier) => `${relative(kitDir, file)} imports "${specifier}"`),
  );
  if (problems.length > 0) throw new Error(`the kit's declarations must need no package but node's and bun's:\n  ${problems.join('\n  ')}`);
}
