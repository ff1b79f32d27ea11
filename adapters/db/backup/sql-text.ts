/**
 * SQL text for the backup file: quoted identifiers and literals, and statements kept to one line each, so the file is
 * read back line by line (no SQL parser) and still runs as it is under `psql -f`.
 */

/** `"name"`, with inner quotes doubled: any identifier, whatever its case or characters. */
export const quoteIdent = (name: string): string => `"${name.replaceAll('"', '""')}"`;

/**
 * A string constant for any text PostgreSQL stores (no NUL). Plain `'...'` when it holds no line break or backslash;
 * otherwise an escape string `E'...'` in which line breaks become `\n`/`\r`, so the statement stays on one line.
 */
export function quoteLiteral(value: string): string {
  const quoted = value.replaceAll("'", "''");
  if (!/[\\\n\r]/.test(value)) return `'${quoted}'`;
  return `E'${quoted.replaceAll('\\', '\\\\').replaceAll('\n', '\\n').replaceAll('\r', '\\r')}'`;
}

/**
 * The statement on one line: as it is when it has no line break; else run through EXECUTE in a DO block (a function's
 * body keeps its line breaks that way, where joining the lines would end a `--` comment's reach at the wrong place).
 */
export function oneLine(statement: string): string {
  const text = statement.trim().replace(/;$/, '');
  if (!/[\n\r]/.test(text)) return `${text};`;
  return `DO $loadplane_restore$ BEGIN EXECUTE ${quoteLiteral(text)}; END $loadplane_restore$;`;
}
