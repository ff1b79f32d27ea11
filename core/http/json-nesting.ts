/**
 * How deep a JSON text nests, read before it is parsed: a body nested 100,000 deep parses, then overflows the stack
 * of every recursive walk after it (validation, its error messages) after seconds of work. One linear pass over the
 * text, strings skipped, refuses it first.
 */

/** Deeper than any body of our API needs (OTLP's nested attribute values included), shallow enough for every walk. */
export const maxJsonNesting = 64;

/** Whether `text` opens more than `limit` objects or arrays inside one another. Malformed text is for the parser to name. */
export function jsonNestsDeeperThan(text: string, limit = maxJsonNesting): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (inString) {
      if (code === 0x5c) i++; // a backslash: the next character is escaped
      else if (code === 0x22) inString = false;
    } else if (code === 0x22) {
      inString = true;
    } else if (code === 0x7b || code === 0x5b) {
      if (++depth > limit) return true;
    } else if (code === 0x7d || code === 0x5d) {
      depth--;
    }
  }
  return false;
}
