/**
 * An unexpected error as a log field without the values it may quote: PostgreSQL's messages repeat the offending
 * input (`invalid input syntax for type uuid: "..."`, `Key (username)=(...)`), and on these routes input can be a
 * password or a token.
 */
export function loggableError(error: unknown): string {
  if (!(error instanceof Error)) return typeof error;
  const code = (error as { code?: unknown }).code;
  const message = error.message
    .replace(/"(?:[^"\\]|\\.)*"/g, '"…"')
    .replace(/'(?:[^'\\]|\\.)*'/g, "'…'")
    .replace(/\)=\([^)]*\)/g, ')=(…)')
    .slice(0, 500);
  return `${error.name}${typeof code === 'string' ? ` [${code}]` : ''}: ${message}`;
}
