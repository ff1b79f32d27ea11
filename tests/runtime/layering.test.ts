/**
 * The layers hold: core/ imports no plugin, adapter, config module, test or benchmark (the composition root in
 * adapters/composition decides which plugins run); a plugin imports nothing of Loadplane but the public entry
 * `loadplane/plugin` (its tests also `loadplane/plugin/testing`), plus its own files and npm packages; the example
 * third-party plugin only the published kit, `@loadplane/plugin-kit` (and `/testing` in its tests).
 */
import { expect, test } from 'bun:test';
import { readdir, readFile } from 'node:fs/promises';
import { dirname, join, relative, resolve, sep } from 'node:path';
import { repoRoot } from '../helpers/service-process.ts';

/** Test code: `*.test.ts`, and test-support modules named `test-*.ts`. */
const isTestCode = (file: string) => file.endsWith('.test.ts') || /(^|\/)test-[^/]*\.ts$/.test(file);

async function tsFiles(dir: string): Promise<string[]> {
  const entries = await readdir(dir, { withFileTypes: true }).catch(() => []);
  const nested = await Promise.all(
    entries.map((entry) => {
      const path = join(dir, entry.name);
      if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : tsFiles(path);
      return entry.name.endsWith('.ts') ? [path] : [];
    }),
  );
  return nested.flat();
}

/** Every module specifier a file imports or re-exports, statically or with import(). */
function importsOf(source: string): string[] {
  const found: string[] = [];
  const patterns = [
    /^\s*(?:import|export)\s[^;]*?\sfrom\s*['"]([^'"]+)['"]/gm,
    /^\s*import\s*['"]([^'"]+)['"]/gm,
    /\bimport\(\s*['"]([^'"]+)['"]\s*\)/g,
  ];
  for (const pattern of patterns) for (const match of source.matchAll(pattern)) found.push(match[1]!);
  return found;
}

const topFolder = (path: string) => relative(repoRoot, path).split(sep)[0]!;

/** Why `specifier` may not be imported by `file`, or null when it may. */
function violation(file: string, specifier: string): string | null {
  const area = relative(repoRoot, file).split(sep);
  const relativeImport = specifier.startsWith('.');
  const target = relativeImport ? resolve(dirname(file), specifier) : null;
  const testCode = isTestCode(file);

  if (area[0] === 'core') {
    if (testCode) return null;
    if (target && topFolder(target) !== 'core') return `core imports ${topFolder(target)}/`;
    if (specifier === 'loadplane' || specifier.startsWith('loadplane/')) return 'core imports the public plugin entry';
    return null;
  }

  if (area[0] === 'examples') {
    // The example is a third party's package: the published kit is all it may import of Loadplane.
    if (specifier === '@loadplane/plugin-kit') return null;
    if (specifier === '@loadplane/plugin-kit/testing') return testCode ? null : 'plugin code imports the testing entry (tests only)';
    if (specifier === 'loadplane' || specifier.startsWith('loadplane/') || specifier.startsWith('@loadplane/')) {
      return `imports ${specifier}; a third-party plugin imports @loadplane/plugin-kit (and /testing in its tests)`;
    }
  }

  if (area[0] === 'plugins' || area[0] === 'examples') {
    const own = join(repoRoot, area[0], area[1]!);
    if (specifier === 'loadplane/plugin') return null;
    if (specifier === 'loadplane/plugin/testing') return testCode ? null : 'plugin code imports the testing entry (tests only)';
    if (specifier === 'loadplane' || specifier.startsWith('loadplane/')) return `imports ${specifier}; the public entries are loadplane/plugin and loadplane/plugin/testing`;
    if (!relativeImport) return /^(node|bun):/.test(specifier) && !testCode ? 'plugin code uses a runtime module (the agent host runs processes for it)' : null;
    if (target!.startsWith(`${own}${sep}`)) return null;
    // The repository's own tests of built-in plugins may use sibling plugins and the repository's test helpers.
    if (testCode && area[0] === 'plugins') {
      const top = relative(repoRoot, target!).split(sep);
      if (top[0] === 'plugins' || (top[0] === 'tests' && top[1] === 'helpers')) return null;
    }
    return `reaches outside its package: ${relative(repoRoot, target!)} (import it from loadplane/plugin)`;
  }
  return null;
}

test('core, plugins and the example plugin import only what their layer allows', async () => {
  const offenders: string[] = [];
  for (const root of ['core', 'plugins', 'examples']) {
    for (const file of await tsFiles(join(repoRoot, root))) {
      for (const specifier of importsOf(await readFile(file, 'utf8'))) {
        const why = violation(file, specifier);
        if (why) offenders.push(`${relative(repoRoot, file)}: '${specifier}': ${why}`);
      }
    }
  }
  expect(offenders).toEqual([]);
});

test('the check catches each kind of offence', () => {
  const at = (path: string) => join(repoRoot, path);
  expect(violation(at('core/boot-service.ts'), '../plugins/builtin.ts')).toContain('core imports plugins/');
  expect(violation(at('core/services/machines.ts'), '../../config/plans.ts')).toContain('core imports config/');
  expect(violation(at('core/agent/agent.ts'), '../../adapters/agent/start-node-agent.ts')).toContain('core imports adapters/');
  expect(violation(at('core/agent/agent.ts'), 'loadplane/plugin')).toContain('public plugin entry');
  expect(violation(at('core/agent/agent.ts'), '../kernel/logger.ts')).toBeNull();
  expect(violation(at('plugins/load-tool-k6/index.ts'), '../../core/capabilities/load-tool.ts')).toContain('reaches outside');
  expect(violation(at('plugins/load-tool-k6/index.ts'), '../load-tool-custom/index.ts')).toContain('reaches outside');
  expect(violation(at('plugins/load-tool-k6/index.ts'), 'loadplane/plugin/testing')).toContain('tests only');
  expect(violation(at('plugins/load-tool-k6/index.ts'), 'node:fs')).toContain('runtime module');
  expect(violation(at('plugins/load-tool-k6/index.ts'), './k6-tool.ts')).toBeNull();
  expect(violation(at('plugins/load-tool-k6/index.ts'), 'loadplane/plugin')).toBeNull();
  expect(violation(at('plugins/load-tool-k6/index.ts'), '@sinclair/typebox')).toBeNull();
  expect(violation(at('plugins/load-tool-k6/contract.test.ts'), 'loadplane/plugin/testing')).toBeNull();
  expect(violation(at('examples/loadplane-plugin-hey/contract.test.ts'), '../../tests/helpers/k6-binary.ts')).toContain('reaches outside');
  expect(violation(at('examples/loadplane-plugin-hey/index.ts'), 'loadplane/plugin')).toContain('@loadplane/plugin-kit');
  expect(violation(at('examples/loadplane-plugin-hey/index.ts'), '@loadplane/plugin-kit')).toBeNull();
  expect(violation(at('examples/loadplane-plugin-hey/index.ts'), '@loadplane/plugin-kit/testing')).toContain('tests only');
  expect(violation(at('examples/loadplane-plugin-hey/contract.test.ts'), '@loadplane/plugin-kit/testing')).toBeNull();
  expect(importsOf("import {\n  a,\n  type B,\n} from '../x.ts';\nexport { c } from './c.ts';\nconst m = await import('pkg');\nimport './side.ts';")).toEqual([
    '../x.ts',
    './c.ts',
    './side.ts',
    'pkg',
  ]);
});

// ---- Core's tables ---------------------------------------------------------------------------------------------

/** The tables core's migrations create: a plugin reads and writes them only through the ports of `loadplane/plugin`. */
async function tablesCreatedIn(files: readonly string[]): Promise<Set<string>> {
  const tables = new Set<string>();
  for (const file of files) {
    for (const match of (await readFile(file, 'utf8')).matchAll(/create table (?:if not exists )?"?([a-z_][a-z0-9_]*)/gi)) tables.add(match[1]!.toLowerCase());
  }
  return tables;
}

const coreTables = async () => tablesCreatedIn(await tsFiles(join(repoRoot, 'core/domain/migrations')));

/** Tables the built-in plugins' own migrations create. */
const pluginTables = async () => tablesCreatedIn((await tsFiles(join(repoRoot, 'plugins'))).filter((file) => file.includes(`${sep}migrations${sep}`)));

/**
 * The tables a source's SQL reads or writes: in its string literals, a table after from, into, update, join, alter
 * table, drop table or truncate. A foreign key (`references t`) is not counted: a plugin's row may follow a core row's
 * deletion without reading or writing it.
 */
function tablesInSql(source: string): string[] {
  const found: string[] = [];
  for (const literal of source.matchAll(/`[^`]*`|'(?:[^'\\\n]|\\.)*'|"(?:[^"\\\n]|\\.)*"/g)) {
    for (const match of literal[0].matchAll(/\b(?:from|into|update|join|alter\s+table|drop\s+table|truncate(?:\s+table)?)\s+"?([a-z_][a-z0-9_]*)"?/gi)) {
      found.push(match[1]!.toLowerCase());
    }
  }
  return found;
}

/**
 * Core tables a plugin still names, each with why; the list only shrinks (an entry no longer used fails the test).
 * None today: the webhook tables and notification_preferences are their plugins' own (their migrations).
 */
const knownCoreTableUses: Record<string, string[]> = {};

test("no plugin names a core table in its SQL (but the listed, shrinking exceptions)", async () => {
  const core = await coreTables();
  expect(core.has('outbox')).toBe(true);
  const used = new Map<string, Set<string>>();
  for (const root of ['plugins', 'examples']) {
    for (const file of await tsFiles(join(repoRoot, root))) {
      if (isTestCode(file)) continue;
      const area = relative(repoRoot, file).split(sep).slice(0, 2).join('/');
      for (const table of tablesInSql(await readFile(file, 'utf8'))) {
        if (!core.has(table)) continue;
        if (!used.has(area)) used.set(area, new Set());
        used.get(area)!.add(`${table} (${relative(repoRoot, file)})`);
      }
    }
  }
  const offenders: string[] = [];
  for (const [area, uses] of used) {
    for (const use of uses) if (!knownCoreTableUses[area]?.includes(use.split(' ')[0]!)) offenders.push(`${area}: ${use}`);
  }
  expect(offenders).toEqual([]);
  const stale = Object.entries(knownCoreTableUses).flatMap(([area, tables]) =>
    tables.filter((table) => ![...(used.get(area) ?? [])].some((use) => use.startsWith(`${table} `))).map((table) => `${area}: ${table}`),
  );
  expect(stale).toEqual([]);
});

test("core and the adapters never name a plugin's table in their SQL (a plugin's figures reach them through capabilities)", async () => {
  const tables = await pluginTables();
  expect(tables.has('webhooks')).toBe(true);
  expect(tables.has('notification_preferences')).toBe(true);
  const offenders: string[] = [];
  for (const root of ['core', 'adapters']) {
    for (const file of await tsFiles(join(repoRoot, root))) {
      if (isTestCode(file) || file.includes(`${sep}migrations${sep}`)) continue;
      for (const table of tablesInSql(await readFile(file, 'utf8'))) if (tables.has(table)) offenders.push(`${relative(repoRoot, file)}: ${table}`);
    }
  }
  expect(offenders).toEqual([]);
});

test('the table check reads SQL in string literals only, and not foreign keys', () => {
  expect(tablesInSql("await tx.all(`select name from tests where id = ?`, [id]); // from tests")).toEqual(['tests']);
  expect(tablesInSql("sql.all('insert into outbox (a) values (?)'); sql.all(\"update memberships set x = 1\")")).toEqual(['outbox', 'memberships']);
  expect(tablesInSql('`create table mine (user_id uuid references user_profiles (id))`')).toEqual([]);
  expect(tablesInSql('// we read from tests here, in a comment')).toEqual([]);
});
