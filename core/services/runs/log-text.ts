/** Makes a tool's output line storable as printed: NUL and broken UTF-16 (from invalid UTF-8) become U+FFFD, long lines are cut. */

export const maxLineChars = 16 * 1024;

export function storableLine(text: string): string {
  // PostgreSQL text refuses NUL (22021) and jsonb refuses lone surrogates: replace, never drop.
  let clean = text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
  if (!clean.isWellFormed()) clean = clean.toWellFormed();
  return clean.length > maxLineChars ? `${clean.slice(0, maxLineChars)}…[line cut]` : clean;
}
