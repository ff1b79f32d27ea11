/** ui/build.ts on a tiny app of its own: hashed assets under /assets/, absolute URLs, a source hash that tells a stale build. */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { existsSync, readdirSync } from 'node:fs';
import { mkdir, mkdtemp, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { buildUi, buildUiIfStale, builtSourceHash, SOURCE_HASH_FILE, uiBuildIsCurrent, uiSourceHash } from '../../ui/build.ts';

let root: string;
let options: { sourceDir: string; outDir: string; extraInputs: string[] };

beforeAll(async () => {
  root = await mkdtemp(join(tmpdir(), 'loadplane-ui-build-'));
  const src = join(root, 'src');
  await mkdir(join(src, 'pages'), { recursive: true });
  await writeFile(
    join(src, 'index.html'),
    '<!doctype html><html><head><meta charset="utf-8"><title>t</title></head><body><div id="root"></div><script type="module" src="./main.ts"></script></body></html>',
  );
  await writeFile(join(src, 'main.ts'), "import './style.css';\ndocument.body.dataset.ready = 'yes';\ndocument.body.onclick = () => import('./pages/runs.ts').then((page) => console.log(page.title));\n");
  await writeFile(join(src, 'pages/runs.ts'), "export const title = 'Runs';\n");
  await writeFile(join(src, 'style.css'), 'body { margin: 0; color: #123456; }\n');
  await writeFile(join(root, 'package.json'), '{"name":"tiny"}\n');
  options = { sourceDir: src, outDir: join(root, 'dist'), extraInputs: [join(root, 'package.json')] };
});
afterAll(() => rm(root, { recursive: true, force: true }));

describe('buildUi', () => {
  test('bundles the HTML entry: hashed, minified assets under /assets/, a lazy chunk, the source hash last', async () => {
    expect(await uiBuildIsCurrent(options)).toBe(false);
    const result = await buildUi(options);
    expect(result.files).toContain('index.html');
    expect(result.files).toContain(SOURCE_HASH_FILE);
    const assets = result.files.filter((file) => file.startsWith('assets/'));
    expect(assets.some((file) => /^assets\/[\w-]+-[a-z0-9]{8}\.js$/.test(file))).toBe(true);
    expect(assets.some((file) => /^assets\/[\w-]+-[a-z0-9]{8}\.css$/.test(file))).toBe(true);
    // The lazy page is a chunk of its own.
    expect(assets.filter((file) => file.endsWith('.js')).length).toBeGreaterThanOrEqual(2);
    const index = await readFile(join(options.outDir, 'index.html'), 'utf8');
    // Absolute: the same index answers /runs/abc, where ./assets/... would point under /runs/.
    expect(index).toMatch(/src="\/assets\/[\w-]+\.js"/);
    expect(index).toMatch(/href="\/assets\/[\w-]+\.css"/);
    expect(index).not.toContain('./main.ts');
    expect(await builtSourceHash(options)).toBe(result.hash);
    expect(await uiBuildIsCurrent(options)).toBe(true);
    // Nothing is left of the staging directory.
    expect(readdirSync(root).sort()).toEqual(['dist', 'package.json', 'src']);
  });

  test('a changed source, a new file or a changed extra input makes the build stale; buildUiIfStale rebuilds only then', async () => {
    await buildUiIfStale(options);
    expect(await buildUiIfStale(options)).toBeNull();
    const before = await uiSourceHash(options);
    await writeFile(join(options.sourceDir, 'pages/runs.ts'), "export const title = 'All runs';\n");
    const edited = await uiSourceHash(options);
    expect(edited).not.toBe(before);
    await writeFile(join(options.sourceDir, 'pages/new.ts'), 'export {};\n');
    expect(await uiSourceHash(options)).not.toBe(edited);
    const withFile = await uiSourceHash(options);
    await writeFile(join(root, 'package.json'), '{"name":"tiny","version":"2"}\n');
    expect(await uiSourceHash(options)).not.toBe(withFile);
    expect(await uiBuildIsCurrent(options)).toBe(false);
    const rebuilt = await buildUiIfStale(options);
    expect(rebuilt?.hash).toBe(await uiSourceHash(options));
    expect(await uiBuildIsCurrent(options)).toBe(true);
  });

  test('a broken source fails with the place and keeps the previous build', async () => {
    const good = await builtSourceHash(options);
    await writeFile(join(options.sourceDir, 'pages/runs.ts'), "import { nope } from './missing.ts';\nexport const title = nope;\n");
    const failure = await buildUi(options).then(
      () => null,
      (error: Error) => error.message,
    );
    expect(failure).toContain('UI build failed');
    expect(failure).toContain('missing.ts');
    expect(await builtSourceHash(options)).toBe(good);
    expect(existsSync(join(options.outDir, 'index.html'))).toBe(true);
    expect(await uiBuildIsCurrent(options)).toBe(false);
  });

  test('no sources: a clear error', async () => {
    await expect(buildUi({ ...options, sourceDir: join(root, 'nowhere') })).rejects.toThrow('no UI sources');
  });
});
