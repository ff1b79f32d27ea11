/** Makes a tool's output line storable as printed: NUL and broken UTF-16 (from invalid UTF-8) become U+FFFD, long lines are cut. */

export const maxLineChars = 16 * 1024;

/** NUL and broken UTF-16 as U+FFFD, nothing cut: what the masker reads, so what it masks is what is stored. */
export function sanitisedLine(text: string): string {
  // PostgreSQL text refuses NUL (22021) and jsonb refuses lone surrogates: replace, never drop.
  const clean = text.includes('\u0000') ? text.replaceAll('\u0000', '\uFFFD') : text;
  return clean.isWellFormed() ? clean : clean.toWellFormed();
}

export function storableLine(text: string): string {
  const clean = sanitisedLine(text);
  return clean.length > maxLineChars ? `${clean.slice(0, maxLineChars)}…[line cut]` : clean;
}

/** UTF-8 size of a string without encoding it (a surrogate pair is one 4-byte character). */
export function utf8Bytes(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      bytes += 4;
      i++;
    } else bytes += 3;
  }
  return bytes;
}
