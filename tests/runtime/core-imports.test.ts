/** The core stays runtime-agnostic: no Bun, Deno, node:* or process in core/, in plugins or in the public plugin entry (tests aside). */
import { expect, test } from 'bun:test';
import { readdir, readFile } from 'node:fs/promises';
import { join, relative } from 'node:path';
import { repoRoot } from '../helpers/service-process.ts';

const forbidden = [
  /from\s+['"](bun|node:[\w/]+|deno)['"]/,
  /import\(\s*['"](bun|node:[\w/]+)['"]\s*\)/,
  /require\(\s*['"]node:/,
  /\bBun\./,
  /\bDeno\./,
  /\bprocess\.(env|exit|argv|on|cwd)\b/,
  /\bBuffer\./,
];

async function sourceFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true });
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : sourceFiles(path);
      return entry.name.endsWith('.ts') && !entry.name.endsWith('.test.ts') ? [path] : [];
    }),
  );
  return nested.flat();
}

test('core/, plugins/, the example plugin and loadplane/plugin use no runtime-specific API', async () => {
  const offenders: string[] = [];
  for (const root of ['core', 'plugins', 'examples', 'plugin-api/index.ts']) {
    for (const file of root.endsWith('.ts') ? [join(repoRoot, root)] : await sourceFiles(join(repoRoot, root))) {
      const lines = (await readFile(file, 'utf8')).split('\n');
      let engineSide = false;
      lines.forEach((line, index) => {
        // Source a plugin ships to its engine (a Node module for Artillery's own process) is text here, between
        // `// engine-side source: begin` and `// engine-side source: end`; it runs in the engine, never in Loadplane.
        if (line.includes('// engine-side source: begin')) engineSide = true;
        else if (line.includes('// engine-side source: end')) engineSide = false;
        else if (!engineSide && forbidden.some((pattern) => pattern.test(line))) offenders.push(`${relative(repoRoot, file)}:${index + 1}: ${line.trim()}`);
      });
      expect(engineSide, `${relative(repoRoot, file)}: an engine-side block without its end`).toBe(false);
    }
  }
  expect(offenders).toEqual([]);
});

test('the check itself catches an offending line', () => {
  expect(forbidden.some((pattern) => pattern.test("import { readFile } from 'node:fs/promises';"))).toBe(true);
  expect(forbidden.some((pattern) => pattern.test('const port = process.env.PORT;'))).toBe(true);
  expect(forbidden.some((pattern) => pattern.test("import { Elysia } from 'elysia';"))).toBe(false);
});
