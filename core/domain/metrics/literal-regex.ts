/**
 * The regexes dashboards write most, matched without a regex engine, as Prometheus' FastRegexMatcher does: `.*`,
 * a literal, `prefix.*`, `.*suffix`, `.*part.*`, and alternations of those (`a|b|c`). RE2 is linear but pays a
 * compile and an automaton per query, ten times the JavaScript engine on these; plain string tests cost less than
 * either. Anything else (classes, groups, repeats, escapes such as \d) returns null: the caller uses RE2.
 */

/** Characters with a meaning in RE2 syntax; escaped with a backslash they are literals. */
const meta = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);

interface Shape {
  /** Leading `.*`: anything may come before the literal. */
  open: boolean;
  literal: string;
  /** Trailing `.*`: anything may come after. */
  close: boolean;
}

/** One alternative: an optional `.*`, a literal, an optional `.*`; null for anything else. */
function shapeOf(text: string): Shape | null {
  let rest = text;
  const open = rest.startsWith('.*');
  if (open) rest = rest.slice(2);
  let literal = '';
  let close = false;
  for (let i = 0; i < rest.length; i++) {
    const char = rest[i]!;
    if (char === '\\') {
      const next = rest[i + 1];
      if (next === undefined || !meta.has(next)) return null; // \d, \w, \Q ... are RE2's to read
      literal += next;
      i++;
    } else if (char === '.' && rest[i + 1] === '*' && i + 2 === rest.length) {
      close = true;
      break;
    } else if (meta.has(char)) {
      return null;
    } else {
      literal += char;
    }
  }
  return { open, literal, close };
}

/** Splits at `|` outside escapes; the caller has ruled out groups and classes, where `|` would mean otherwise. */
function alternatives(pattern: string): string[] {
  const parts: string[] = [];
  let start = 0;
  for (let i = 0; i < pattern.length; i++) {
    if (pattern[i] === '\\') i++;
    else if (pattern[i] === '|') {
      parts.push(pattern.slice(start, i));
      start = i + 1;
    }
  }
  parts.push(pattern.slice(start));
  return parts;
}

const testOf = ({ open, literal, close }: Shape): ((text: string) => boolean) => {
  if (open && close) return literal === '' ? () => true : (text) => text.includes(literal);
  if (open) return (text) => text.endsWith(literal);
  if (close) return (text) => text.startsWith(literal);
  return (text) => text === literal;
};

/** A whole-value matcher for `pattern` (anchored, `.` matching any character) when it has a literal shape, else null. */
export function literalRegex(pattern: string): ((text: string) => boolean) | null {
  const shapes: Shape[] = [];
  for (const part of alternatives(pattern)) {
    const shape = shapeOf(part);
    if (!shape) return null;
    shapes.push(shape);
  }
  if (shapes.length === 1) return testOf(shapes[0]!);
  // Equalities in a set: an alternation of ten ids tests one lookup, not ten comparisons.
  const exact = new Set(shapes.filter((s) => !s.open && !s.close).map((s) => s.literal));
  const others = shapes.filter((s) => s.open || s.close).map(testOf);
  if (others.length === 0) return (text) => exact.has(text);
  return (text) => exact.has(text) || others.some((test) => test(text));
}
