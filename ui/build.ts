/** Builds the admin UI with Bun (HTML entry ui/src/index.html) into ui/dist, stamped with a hash of its sources. */
import { createHash } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, readdir, readFile, rename, rm, writeFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { fileURLToPath } from 'node:url';
import { ROUTE_PRELOADS_FILE, routePreloads } from './route-preloads.ts';

/** Written last into the output: a build without it (or with another hash) is stale or was interrupted. */
export const SOURCE_HASH_FILE = '.source-hash';

const uiRoot = dirname(fileURLToPath(import.meta.url));

export interface UiBuildOptions {
  /** The app's sources, with index.html at the top; default ui/src. */
  sourceDir?: string;
  /** Where the built files go; default ui/dist. */
  outDir?: string;
  /** Files besides the sources that change the output (this script, the package's versions). */
  extraInputs?: readonly string[];
}

export interface UiBuildResult {
  outDir: string;
  hash: string;
  files: string[];
  millis: number;
}

function resolved(options: UiBuildOptions) {
  return {
    sourceDir: resolve(options.sourceDir ?? join(uiRoot, 'src')),
    outDir: resolve(options.outDir ?? join(uiRoot, 'dist')),
    extraInputs: (options.extraInputs ?? [fileURLToPath(import.meta.url), join(uiRoot, 'route-preloads.ts'), join(uiRoot, 'package.json')]).map((file) =>
      resolve(file),
    ),
  };
}

async function filesUnder(directory: string): Promise<string[]> {
  const entries = await readdir(directory, { withFileTypes: true, recursive: true });
  return entries.filter((entry) => entry.isFile()).map((entry) => join(entry.parentPath, entry.name));
}

/**
 * SHA-256 over every source file (its path relative to the sources, then its bytes) and the extra inputs, in a fixed
 * order, so the same checkout always gives the same hash whatever the file system's listing order.
 */
export async function uiSourceHash(options: UiBuildOptions = {}): Promise<string> {
  const { sourceDir, extraInputs } = resolved(options);
  const hash = createHash('sha256');
  const sources = existsSync(sourceDir) ? await filesUnder(sourceDir) : [];
  const named = [
    ...sources.map((file) => ({ name: `src/${relative(sourceDir, file).split(sep).join('/')}`, file })),
    ...extraInputs.map((file) => ({ name: `extra/${file.split(sep).pop()}`, file })),
  ].sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  for (const { name, file } of named) {
    hash.update(`${name}\0`);
    hash.update(existsSync(file) ? await readFile(file) : new Uint8Array());
    hash.update('\0');
  }
  return hash.digest('hex');
}

/** The hash the current build was made from, or null when there is no complete build. */
export async function builtSourceHash(options: UiBuildOptions = {}): Promise<string | null> {
  const { outDir } = resolved(options);
  try {
    return (await readFile(join(outDir, SOURCE_HASH_FILE), 'utf8')).trim() || null;
  } catch {
    return null;
  }
}

/** Whether ui/dist was built from the sources as they are now. */
export async function uiBuildIsCurrent(options: UiBuildOptions = {}): Promise<boolean> {
  const built = await builtSourceHash(options);
  return built !== null && built === (await uiSourceHash(options));
}

/**
 * Bundles the app: scripts and stylesheets index.html references get hashed names under /assets/ (cached forever by
 * the server), lazy routes become their own chunks. Absolute asset URLs, because the same index answers deep links
 * such as /runs/abc. Builds into a fresh directory and swaps it in, so a running server never sees half a build.
 */
export async function buildUi(options: UiBuildOptions = {}): Promise<UiBuildResult> {
  const started = performance.now();
  const { sourceDir, outDir } = resolved(options);
  const entry = join(sourceDir, 'index.html');
  if (!existsSync(entry)) throw new Error(`no UI sources: ${entry} does not exist`);
  const hash = await uiSourceHash(options);
  const staging = `${outDir}.building-${process.pid}-${Date.now()}`;
  try {
    const result = await Bun.build({
      // Bun throws an AggregateError of build messages instead of answering success: false; either way we say what failed.
      throw: false,
      entrypoints: [entry],
      outdir: staging,
      target: 'browser',
      // UI_NO_MINIFY=1: readable function names in a CPU profile (bench/ui/settings-and-dashboard.ts --cpu).
      minify: process.env.UI_NO_MINIFY !== '1',
      splitting: true,
      sourcemap: 'none',
      publicPath: '/',
      // The app reads no environment at build time; React needs its production build chosen here.
      env: 'disable',
      define: { 'process.env.NODE_ENV': '"production"' },
      naming: { entry: '[dir]/[name].[ext]', chunk: 'assets/[name]-[hash].[ext]', asset: 'assets/[name]-[hash].[ext]' },
    });
    if (!result.success) throw new Error(`UI build failed:\n${describeLogs(result.logs)}`);
    // Which chunks each page needs, for the server's modulepreload links (a router without the file has none).
    const routesFile = join(sourceDir, 'app', 'routes.tsx');
    if (existsSync(routesFile)) {
      const preloads = await routePreloads(staging, await readFile(routesFile, 'utf8'));
      await writeFile(join(staging, ROUTE_PRELOADS_FILE), `${JSON.stringify(preloads, null, 1)}\n`);
    }
    await writeFile(join(staging, SOURCE_HASH_FILE), `${hash}\n`);
    const files = (await filesUnder(staging)).map((file) => relative(staging, file).split(sep).join('/')).sort();
    await mkdir(dirname(outDir), { recursive: true });
    // Swap: the old build goes aside first, so the new one appears whole under the final name.
    const old = `${outDir}.old-${process.pid}-${Date.now()}`;
    if (existsSync(outDir)) await rename(outDir, old);
    await rename(staging, outDir);
    await rm(old, { recursive: true, force: true });
    return { outDir, hash, files, millis: Math.round(performance.now() - started) };
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
}

/** Build messages with where they point: `src/pages/runs.tsx:12:3: Could not resolve "x"`. */
function describeLogs(logs: readonly (BuildMessage | ResolveMessage)[]): string {
  return logs
    .filter((log) => log.level === 'error')
    .map((log) => {
      const where = log.position ? `${relative(process.cwd(), log.position.file)}:${log.position.line}:${log.position.column}: ` : '';
      return `${where}${log.message}`;
    })
    .join('\n');
}

/**
 * Builds when ui/dist is missing or was built from other sources; what the service's start and `npm ci` call.
 * Returns null when the build was current already.
 */
export async function buildUiIfStale(options: UiBuildOptions = {}): Promise<UiBuildResult | null> {
  if (await uiBuildIsCurrent(options)) return null;
  return buildUi(options);
}

// `bun ui/build.ts` builds always; `--if-stale` only when the sources changed since the last build.
if (import.meta.main) {
  const ifStale = process.argv.includes('--if-stale');
  try {
    const result = ifStale ? await buildUiIfStale() : await buildUi();
    if (result) console.log(`ui: built ${result.files.length} files into ${relative(process.cwd(), result.outDir) || '.'} in ${result.millis} ms`);
    else console.log('ui: the build in ui/dist is current');
  } catch (error) {
    console.error(`ui: ${(error as Error).message}`);
    process.exit(1);
  }
}
