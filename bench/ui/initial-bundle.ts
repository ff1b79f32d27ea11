/**
 * The admin UI's initial JavaScript: what the browser must fetch before the first page renders (the index's entry
 * script and every chunk it imports statically), gzipped, against the budget of 250 KB. Lazy pages (dynamic
 * `import()`) are listed apart. Builds the UI first (`bun ui/build.ts`).
 * Run: `./node_modules/.bin/bun bench/ui/initial-bundle.ts` (exit 1 over budget).
 */
import { readdir, readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildUi } from '../../ui/build.ts';

const budgetBytes = 250 * 1024;
const dist = join(import.meta.dir, '../../ui/dist');

await buildUi();
const index = await readFile(join(dist, 'index.html'), 'utf8');
const entries = [...index.matchAll(/<script[^>]+src="\/assets\/([^"]+\.js)"/g)].map((m) => m[1]!);
const styles = [...index.matchAll(/<link[^>]+href="\/assets\/([^"]+\.css)"/g)].map((m) => m[1]!);

const gzipped = async (name: string) => gzipSync(await readFile(join(dist, 'assets', name)), { level: 9 }).length;
// Static imports of a Bun chunk: `import{...}from"./x.js"` and bare `import"./x.js"`; `import("./x.js")` is lazy.
const staticImports = (code: string) => [...code.matchAll(/(?:from|import)\s*"\.\/([^"]+\.js)"/g)].map((m) => m[1]!);

const initial = new Set<string>();
const queue = [...entries];
while (queue.length > 0) {
  const name = queue.shift()!;
  if (initial.has(name)) continue;
  initial.add(name);
  queue.push(...staticImports(await readFile(join(dist, 'assets', name), 'utf8')));
}
const allJs = (await readdir(join(dist, 'assets'))).filter((name) => name.endsWith('.js'));
const lazy = allJs.filter((name) => !initial.has(name));

let initialBytes = 0;
for (const name of initial) initialBytes += await gzipped(name);
let styleBytes = 0;
for (const name of styles) styleBytes += await gzipped(name);
let lazyBytes = 0;
for (const name of lazy) lazyBytes += await gzipped(name);

const kb = (bytes: number) => `${(bytes / 1024).toFixed(1)} KB`;
console.log(`initial JavaScript: ${initial.size} files, ${kb(initialBytes)} gzipped (budget ${kb(budgetBytes)}: ratio ${(initialBytes / budgetBytes).toFixed(2)})`);
console.log(`initial CSS: ${kb(styleBytes)} gzipped`);
console.log(`lazy chunks: ${lazy.length} files, ${kb(lazyBytes)} gzipped in all (loaded with their pages)`);
if (initialBytes > budgetBytes) process.exitCode = 1;
