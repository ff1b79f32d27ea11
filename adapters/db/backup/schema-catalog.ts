/**
 * Reads the service's schema (the connection's current schema) from PostgreSQL's catalog, the way pg_dump does, with
 * the server's own pg_get_*def functions: tables, columns, sequences, constraints, indexes, trigger functions and
 * triggers. These are the kinds of objects the migrations make; anything else found there is named as unsupported
 * rather than silently left out of a backup.
 */
import type { SqlSession } from './sql-session.ts';

export interface Column {
  name: string;
  type: string;
  notNull: boolean;
  default: string | null;
  /** '' none, 'a' GENERATED ALWAYS, 'd' BY DEFAULT. */
  identity: '' | 'a' | 'd';
  /** '' none, 's' stored, 'v' virtual: computed columns are never inserted. */
  generated: '' | 's' | 'v';
  /** A generated column's expression (the catalog keeps it where a default would be). */
  expression: string | null;
}

export interface Table {
  name: string;
  columns: Column[];
  /** Primary key columns, to write rows in a stable order (a diffable backup). */
  primaryKey: string[];
}

export interface Sequence {
  name: string;
  type: string;
  start: string;
  increment: string;
  min: string;
  max: string;
  cache: string;
  cycle: boolean;
  /** The column that owns it: a serial column's (`a`) or an identity column's (`i`, created with the table). */
  owner: { table: string; column: string; kind: 'a' | 'i' } | null;
}

export interface Definition {
  table: string | null;
  name: string;
  type?: string;
  definition: string;
}

export interface SchemaCatalog {
  schema: string;
  tables: Table[];
  sequences: Sequence[];
  constraints: Definition[];
  indexes: Definition[];
  functions: Definition[];
  triggers: Definition[];
}

/**
 * Agenda's job store (adapters/queue/agenda): its jobs are registered again at every start and carry no state of their
 * own (core/ports/job-queue.ts), and a locked job restored elsewhere would wait out its old lock. Left out, with its
 * trigger and trigger function; the service makes the table again on a PostgreSQL server.
 */
const leftOut = (table: string) => table.startsWith('agenda_');

/** Objects of extensions are the extension's to create. */
const notFromExtension = (catalog: string, alias: string) =>
  `not exists (select 1 from pg_depend e where e.classid = '${catalog}'::regclass and e.objid = ${alias}.oid and e.deptype = 'e')`;

export class UnsupportedSchemaError extends Error {}

export async function readSchemaCatalog(session: SqlSession): Promise<SchemaCatalog> {
  const [{ schema }] = (await session.query<{ schema: string }>('select current_schema() as schema')) as [{ schema: string }];
  await refuseUnsupported(session);

  const columns = await session.query<Omit<Column, 'expression'> & { table: string }>(
    `select c.relname as "table", a.attname as name, format_type(a.atttypid, a.atttypmod) as type, a.attnotnull as "notNull",
            pg_get_expr(d.adbin, d.adrelid) as "default", a.attidentity::text as identity, a.attgenerated::text as generated
       from pg_attribute a
       join pg_class c on c.oid = a.attrelid
       join pg_namespace n on n.oid = c.relnamespace
       left join pg_attrdef d on d.adrelid = a.attrelid and d.adnum = a.attnum
      where n.nspname = current_schema() and c.relkind = 'r' and not c.relispartition and a.attnum > 0 and not a.attisdropped
        and ${notFromExtension('pg_class', 'c')}
      order by c.relname, a.attnum`,
  );
  const keys = await session.query<{ table: string; columns: string[] }>(
    `select c.relname as "table", array(select a.attname::text from unnest(x.indkey) with ordinality k(num, pos)
                                         join pg_attribute a on a.attrelid = x.indrelid and a.attnum = k.num order by k.pos) as columns
       from pg_index x join pg_class c on c.oid = x.indrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and x.indisprimary`,
  );
  const tables = new Map<string, Table>();
  for (const { table, ...column } of columns) {
    if (leftOut(table)) continue;
    const entry = tables.get(table) ?? { name: table, columns: [], primaryKey: [] };
    entry.columns.push({ ...column, default: column.generated ? null : column.default, expression: column.generated ? column.default : null });
    tables.set(table, entry);
  }
  for (const key of keys) if (tables.has(key.table)) tables.get(key.table)!.primaryKey = key.columns;

  const sequences = (
    await session.query<Omit<Sequence, 'owner'> & { ownerTable: string | null; ownerColumn: string | null; ownerKind: 'a' | 'i' | null }>(
      `select s.relname as name, format_type(q.seqtypid, null) as type, q.seqstart::text as start, q.seqincrement::text as increment,
              q.seqmin::text as min, q.seqmax::text as max, q.seqcache::text as cache, q.seqcycle as cycle,
              t.relname as "ownerTable", a.attname as "ownerColumn", d.deptype::text as "ownerKind"
         from pg_class s
         join pg_namespace n on n.oid = s.relnamespace
         join pg_sequence q on q.seqrelid = s.oid
         left join pg_depend d on d.classid = 'pg_class'::regclass and d.objid = s.oid and d.refclassid = 'pg_class'::regclass
                               and d.deptype in ('a', 'i')
         left join pg_class t on t.oid = d.refobjid
         left join pg_attribute a on a.attrelid = d.refobjid and a.attnum = d.refobjsubid
        where n.nspname = current_schema() and s.relkind = 'S' and ${notFromExtension('pg_class', 's')}
        order by s.relname`,
    )
  )
    .filter((row) => !(row.ownerTable && leftOut(row.ownerTable)))
    .map(({ ownerTable, ownerColumn, ownerKind, ...sequence }) => ({
      ...sequence,
      owner: ownerTable && ownerColumn && ownerKind ? { table: ownerTable, column: ownerColumn, kind: ownerKind } : null,
    }));

  // NOT NULL constraints (contype 'n', PostgreSQL 18) come with their columns; inherited ones with their parent.
  const constraints = await session.query<Definition>(
    `select c.relname as "table", k.conname as name, k.contype::text as type, pg_get_constraintdef(k.oid) as definition
       from pg_constraint k join pg_class c on c.oid = k.conrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind = 'r' and k.contype in ('p', 'u', 'x', 'c', 'f') and k.conislocal
      order by case k.contype when 'p' then 0 when 'u' then 1 when 'x' then 2 when 'c' then 3 else 4 end, c.relname, k.conname`,
  );
  // Indexes of their own; those behind a primary key, unique or exclusion constraint come with the constraint.
  const indexes = await session.query<Definition>(
    `select t.relname as "table", i.relname as name, pg_get_indexdef(x.indexrelid) as definition
       from pg_index x join pg_class i on i.oid = x.indexrelid join pg_class t on t.oid = x.indrelid
       join pg_namespace n on n.oid = t.relnamespace
      where n.nspname = current_schema() and t.relkind = 'r'
        and not exists (select 1 from pg_constraint k where k.conindid = x.indexrelid and k.conrelid = x.indrelid and k.contype in ('p', 'u', 'x'))
      order by t.relname, i.relname`,
  );
  const functions = await session.query<Definition & { triggerTables: string[] }>(
    `select null as "table", p.proname as name, pg_get_functiondef(p.oid) as definition,
            array(select distinct c.relname::text from pg_trigger g join pg_class c on c.oid = g.tgrelid
                   where g.tgfoid = p.oid and not g.tgisinternal) as "triggerTables"
       from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and p.prokind in ('f', 'p') and ${notFromExtension('pg_proc', 'p')}
      order by p.proname, p.oid`,
  );
  const triggers = await session.query<Definition>(
    `select c.relname as "table", g.tgname as name, pg_get_triggerdef(g.oid) as definition
       from pg_trigger g join pg_class c on c.oid = g.tgrelid join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and not g.tgisinternal
      order by c.relname, g.tgname`,
  );
  const kept = (definition: Definition) => definition.table === null || !leftOut(definition.table);
  return {
    schema,
    tables: [...tables.values()],
    sequences,
    constraints: constraints.filter(kept),
    indexes: indexes.filter(kept),
    // A function only Agenda's triggers call goes with them.
    functions: functions
      .filter((fn) => fn.triggerTables.length === 0 || fn.triggerTables.some((table) => !leftOut(table)))
      .map(({ triggerTables: _, ...fn }) => fn),
    triggers: triggers.filter(kept),
  };
}

/** Views, partitioned or foreign tables, standalone types, aggregates: no migration makes them, so no backup handles them. */
async function refuseUnsupported(session: SqlSession): Promise<void> {
  const found = await session.query<{ kind: string; name: string }>(
    `select case c.relkind when 'v' then 'view' when 'm' then 'materialized view' when 'f' then 'foreign table'
                           when 'p' then 'partitioned table' else 'composite type' end as kind, c.relname as name
       from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('v', 'm', 'f', 'p', 'c') and ${notFromExtension('pg_class', 'c')}
     union all
     select 'type', t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where n.nspname = current_schema() and t.typtype in ('e', 'd', 'r', 'm') and ${notFromExtension('pg_type', 't')}
     union all
     select 'aggregate or window function', p.proname from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and p.prokind in ('a', 'w') and ${notFromExtension('pg_proc', 'p')}`,
  );
  if (found.length > 0) {
    throw new UnsupportedSchemaError(
      `the database holds objects a Loadplane backup does not cover: ${found.map((o) => `${o.kind} ${o.name}`).join(', ')}`,
    );
  }
}

/** What the current schema of a restore's target already holds (empty: nothing to overwrite). */
export async function objectsInSchema(session: SqlSession): Promise<string[]> {
  const rows = await session.query<{ name: string }>(
    `select c.relname as name from pg_class c join pg_namespace n on n.oid = c.relnamespace
      where n.nspname = current_schema() and c.relkind in ('r', 'p', 'v', 'm', 'f', 'S') and ${notFromExtension('pg_class', 'c')}
     union all
     select p.proname || '()' from pg_proc p join pg_namespace n on n.oid = p.pronamespace
      where n.nspname = current_schema() and ${notFromExtension('pg_proc', 'p')}
     union all
     select t.typname from pg_type t join pg_namespace n on n.oid = t.typnamespace
      where n.nspname = current_schema() and t.typtype in ('e', 'd', 'r', 'm') and ${notFromExtension('pg_type', 't')}
     order by 1`,
  );
  return rows.map((row) => row.name);
}
