/**
 * The configuration tables say what the code does: docs/configuration.md lists every variable of config/schema.ts and
 * no other, the README's short table only variables of the schema, and each plain default shown (`8080`, `info`) is
 * what loadConfig gives when the variable is unset.
 */
import { describe, expect, test } from 'bun:test';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { loadConfig } from '../../config/load-config.ts';
import { ConfigSchema } from '../../config/schema.ts';
import { repoRoot } from '../helpers/service-process.ts';

interface Row {
  variables: string[];
  defaults: string[];
}

/** Rows of the markdown tables whose first cell names variables (`PORT`, or `A` / `B`). */
function variableRows(doc: string): Row[] {
  return readFileSync(join(repoRoot, doc), 'utf8')
    .split('\n')
    .filter((line) => /^\| `[A-Z][A-Z0-9_]+`/.test(line))
    .map((line) => line.split(/(?<!\\)\|/).map((cell) => cell.trim()))
    .map(([, names = '', fallback = '']) => ({
      variables: [...names.matchAll(/`([A-Z][A-Z0-9_]+)`/g)].map((match) => match[1]!),
      // Only a default that is one literal per variable (`loadplane` / generated ... is not) can be compared.
      defaults: [...fallback.matchAll(/^`([^`$]+)`(?: \([^)]*\))?$|^`([^`$]+)` \/ `([^`$]+)`$/g)].flatMap((match) => match.slice(1).filter(Boolean) as string[]),
    }));
}

/** The variable each schema property is read from (its description starts with the name). */
const schemaVariables = new Map(
  Object.entries(ConfigSchema.properties).map(([key, schema]) => [/^[A-Z][A-Z0-9_]+/.exec(schema.description ?? '')![0], key]),
);
const defaults = loadConfig({}) as unknown as Record<string, unknown>;

function expectDefaultsMatch(rows: Row[]): void {
  for (const row of rows) {
    if (row.defaults.length !== row.variables.length) continue;
    row.variables.forEach((variable, i) => {
      const value = defaults[schemaVariables.get(variable)!];
      if (value === undefined || typeof value === 'object') return;
      expect(`${variable}=${row.defaults[i]}`).toBe(`${variable}=${String(value)}`);
    });
  }
}

describe('configuration tables', () => {
  test('docs/configuration.md lists exactly the variables of config/schema.ts, with their defaults', () => {
    const rows = variableRows('docs/configuration.md');
    expect(rows.flatMap((row) => row.variables).sort()).toEqual([...schemaVariables.keys()].sort());
    expectDefaultsMatch(rows);
  });

  test("the README's short table names variables of the schema, with their defaults", () => {
    const rows = variableRows('README.md');
    expect(rows.length).toBeGreaterThan(3);
    expect(rows.flatMap((row) => row.variables).filter((variable) => !schemaVariables.has(variable))).toEqual([]);
    expectDefaultsMatch(rows);
  });
});
