/**
 * The statements that rebuild a schema read by schema-catalog.ts, in pg_dump's order: sequences and bare tables before
 * the rows; keys, checks, foreign keys, indexes and triggers after them, so rows load in any order, no trigger fires
 * while they load, and each index is built once.
 */
import type { Column, SchemaCatalog, Sequence, Table } from './schema-catalog.ts';
import { oneLine, quoteIdent, quoteLiteral } from './sql-text.ts';

const sequenceOptions = (sequence: Sequence) =>
  [
    `AS ${sequence.type}`,
    `START WITH ${sequence.start}`,
    `INCREMENT BY ${sequence.increment}`,
    `MINVALUE ${sequence.min}`,
    `MAXVALUE ${sequence.max}`,
    `CACHE ${sequence.cache}`,
    sequence.cycle ? 'CYCLE' : 'NO CYCLE',
  ].join(' ');

function columnDefinition(table: Table, column: Column, sequences: readonly Sequence[]): string {
  const parts = [quoteIdent(column.name), column.type];
  if (column.generated) {
    parts.push(`GENERATED ALWAYS AS (${column.expression})${column.generated === 's' ? ' STORED' : ''}`);
  } else if (column.identity) {
    const sequence = sequences.find((s) => s.owner?.kind === 'i' && s.owner.table === table.name && s.owner.column === column.name);
    const options = sequence ? ` (SEQUENCE NAME ${quoteIdent(sequence.name)} ${sequenceOptions(sequence).replace(/^AS \S+ /, '')})` : '';
    parts.push(`GENERATED ${column.identity === 'a' ? 'ALWAYS' : 'BY DEFAULT'} AS IDENTITY${options}`);
  } else if (column.default !== null) {
    parts.push(`DEFAULT ${column.default}`);
  }
  if (column.notNull) parts.push('NOT NULL');
  return parts.join(' ');
}

/** Before the rows: sequences, tables, which column owns which serial sequence, and the functions triggers call. */
export function schemaBeforeData(catalog: SchemaCatalog): string[] {
  const statements: string[] = [];
  for (const sequence of catalog.sequences) {
    if (sequence.owner?.kind === 'i') continue; // made by its identity column
    statements.push(oneLine(`CREATE SEQUENCE ${quoteIdent(sequence.name)} ${sequenceOptions(sequence)}`));
  }
  for (const table of catalog.tables) {
    const columns = table.columns.map((column) => columnDefinition(table, column, catalog.sequences));
    statements.push(oneLine(`CREATE TABLE ${quoteIdent(table.name)} (${columns.join(', ')})`));
  }
  for (const sequence of catalog.sequences) {
    if (sequence.owner?.kind !== 'a') continue;
    statements.push(oneLine(`ALTER SEQUENCE ${quoteIdent(sequence.name)} OWNED BY ${quoteIdent(sequence.owner.table)}.${quoteIdent(sequence.owner.column)}`));
  }
  for (const fn of catalog.functions) statements.push(oneLine(fn.definition));
  return statements;
}

/** After the rows: where each sequence stood, then constraints (keys first), indexes and triggers. */
export function schemaAfterData(catalog: SchemaCatalog, sequencePositions: ReadonlyMap<string, { lastValue: string; isCalled: boolean }>): string[] {
  const statements: string[] = [];
  for (const sequence of catalog.sequences) {
    const position = sequencePositions.get(sequence.name);
    if (!position) continue;
    statements.push(oneLine(`SELECT pg_catalog.setval(${quoteLiteral(quoteIdent(sequence.name))}, ${position.lastValue}, ${position.isCalled})`));
  }
  for (const constraint of catalog.constraints) {
    statements.push(oneLine(`ALTER TABLE ${quoteIdent(constraint.table!)} ADD CONSTRAINT ${quoteIdent(constraint.name)} ${constraint.definition}`));
  }
  for (const index of catalog.indexes) statements.push(oneLine(index.definition));
  for (const trigger of catalog.triggers) statements.push(oneLine(trigger.definition));
  return statements;
}
