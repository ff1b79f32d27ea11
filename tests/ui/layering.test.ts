/**
 * The UI's layering (architecture.md, "Where the new parts go"): ui/ imports nothing outside itself but its own
 * packages, the core knows nothing of the UI, and the plugin that serves it sees only the public plugin API.
 */
import { describe, expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { repoRoot } from '../helpers/service-process.ts';

const uiDir = join(repoRoot, 'ui');
const uiPackage = JSON.parse(readFileSync(join(uiDir, 'package.json'), 'utf8')) as {
  dependencies?: Record<string, string>;
  devDependencies?: Record<string, string>;
};
const uiPackages = new Set([...Object.keys(uiPackage.dependencies ?? {}), ...Object.keys(uiPackage.devDependencies ?? {})]);

function filesUnder(directory: string, extensions: RegExp): string[] {
  if (!existsSync(directory)) return [];
  return readdirSync(directory, { withFileTypes: true, recursive: true })
    .filter((entry) => entry.isFile() && extensions.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => !file.split(sep).includes('node_modules'));
}

/** Every module specifier in a script: static and type imports, re-exports, side-effect imports, import(), require(). */
function specifiersOf(source: string): string[] {
  const code = source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/^\s*\/\/.*$/gm, '');
  // Statements only at the start of a line: an example script inside a string ("import http from 'k6/http'") is no import.
  const patterns = [
    /^\s*(?:import|export)\s[^;'"]*?\bfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
    /\brequire\s*\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  return [...new Set(patterns.flatMap((pattern) => [...code.matchAll(pattern)].map((match) => match[1]!)))];
}

/** `@scope/name/sub` -> `@scope/name`, `name/sub` -> `name`. */
const packageOf = (specifier: string) => specifier.split('/').slice(0, specifier.startsWith('@') ? 2 : 1).join('/');

const isBuiltin = (specifier: string) => specifier.startsWith('node:') || specifier === 'bun' || specifier.startsWith('bun:');

const inside = (directory: string, file: string) => file === directory || file.startsWith(directory + sep);

/** What is wrong with one import of a UI file, or null when it stays in ui/ or names one of the UI's packages. */
function strayImport(file: string, specifier: string, options: { builtins: boolean }): string | null {
  if (specifier.startsWith('.') || specifier.startsWith('/')) {
    const target = resolve(dirname(file), specifier);
    return inside(uiDir, target) ? null : `${specifier} leaves ui/ (${relative(repoRoot, target)})`;
  }
  if (isBuiltin(specifier)) return options.builtins ? null : `${specifier} is a runtime builtin; the browser has none`;
  return uiPackages.has(packageOf(specifier)) ? null : `${specifier} is not a dependency in ui/package.json`;
}

describe('ui/ imports nothing outside itself', () => {
  test('every import of ui/src and ui/build.ts stays in ui/ or names a package of ui/package.json', () => {
    const scripts = filesUnder(join(uiDir, 'src'), /\.(m?[jt]sx?)$/);
    // The build script and the UI's own unit tests run under Bun, never in the browser: they may use its builtins.
    const runsUnderBun = (file: string) => /\.test\.[jt]sx?$/.test(file);
    const checked = [...scripts.map((file) => ({ file, builtins: runsUnderBun(file) })), { file: join(uiDir, 'build.ts'), builtins: true }];
    expect(existsSync(join(uiDir, 'build.ts'))).toBe(true);
    const problems = checked.flatMap(({ file, builtins }) =>
      specifiersOf(readFileSync(file, 'utf8'))
        .map((specifier) => strayImport(file, specifier, { builtins }))
        .filter((problem): problem is string => problem !== null)
        .map((problem) => `${relative(repoRoot, file)}: ${problem}`),
    );
    expect(problems).toEqual([]);
  });

  test('stylesheets and the HTML entry reference only files inside ui/', () => {
    const problems: string[] = [];
    for (const file of filesUnder(join(uiDir, 'src'), /\.(css|html)$/)) {
      const text = readFileSync(file, 'utf8');
      const references = [
        ...text.matchAll(/@import\s+(?:url\()?\s*['"]?([^'")\s;]+)/g),
        ...text.matchAll(/\b(?:src|href)\s*=\s*['"]([^'"]+)['"]/g),
      ].map((match) => match[1]!);
      for (const reference of references) {
        // Other sites (links), fragments, inline data, and site paths such as /favicon.svg are no imports.
        if (/^(?:[a-z][a-z0-9+.-]*:|#|\/)/i.test(reference)) continue;
        // In HTML every other reference is relative to the page; in CSS a bare name is a package.
        const isPackage = file.endsWith('.css') && !reference.startsWith('.');
        if (isPackage) {
          if (!uiPackages.has(packageOf(reference))) problems.push(`${relative(repoRoot, file)}: ${reference} is not a dependency in ui/package.json`);
        } else if (!inside(uiDir, resolve(dirname(file), reference))) {
          problems.push(`${relative(repoRoot, file)}: ${reference} leaves ui/`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('the check itself catches a stray import', () => {
    const file = join(uiDir, 'src', 'pages', 'x.tsx');
    const source = [
      "import type { Config } from '../../../config/schema.ts';",
      "import React from 'react';",
      "const lazy = () => import('../../../core/http/create-app.ts');",
      "import 'left-pad';",
      'import {\n  readFile,\n  type Stats,\n} from "node:fs";',
      'const example = [\n  "import http from \'k6/http\';",\n];',
    ].join('\n');
    const problems = specifiersOf(source).map((specifier) => strayImport(file, specifier, { builtins: false }));
    expect(problems.filter(Boolean)).toHaveLength(4);
    expect(specifiersOf(source)).not.toContain('k6/http');
    expect(strayImport(file, './api/schema', { builtins: false })).toBeNull();
    expect(strayImport(file, '@codemirror/view', { builtins: false })).toBeNull();
  });
});

describe('the core knows nothing of the UI', () => {
  test('core/** never names ui-admin nor imports from ui/', () => {
    const problems: string[] = [];
    for (const file of filesUnder(join(repoRoot, 'core'), /\.(m?[jt]sx?)$/)) {
      const source = readFileSync(file, 'utf8');
      if (source.includes('ui-admin')) problems.push(`${relative(repoRoot, file)} mentions ui-admin`);
      for (const specifier of specifiersOf(source)) {
        if ((specifier.startsWith('.') || specifier.startsWith('/')) && inside(uiDir, resolve(dirname(file), specifier))) {
          problems.push(`${relative(repoRoot, file)} imports ${specifier}`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  test('plugins/ui-admin imports only the public plugin API, its libraries and its own files', () => {
    const pluginDir = join(repoRoot, 'plugins', 'ui-admin');
    const allowed = new Set(['loadplane/plugin', 'elysia', '@sinclair/typebox']);
    const problems: string[] = [];
    for (const file of filesUnder(pluginDir, /\.ts$/).filter((name) => !name.endsWith('.test.ts'))) {
      for (const specifier of specifiersOf(readFileSync(file, 'utf8'))) {
        const ok = specifier.startsWith('.') ? inside(pluginDir, resolve(dirname(file), specifier)) : allowed.has(specifier);
        if (!ok) problems.push(`${relative(repoRoot, file)} imports ${specifier}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
