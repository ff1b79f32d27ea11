/** Label regexes whose backtracking is provably bounded, run on the JavaScript engine instead of RE2; anything else returns null. */

/*
 * Why: RE2 (re2js) keeps every pattern linear, but pays for it on ordinary ones: a character class such as
 * `...00000000[0-9]{2}[a-f]{2}` ran 64 times slower on it than on the JavaScript engine (bench/label-matchers.ts).
 * The JavaScript engine is only dangerous where backtracking can explode, so this module reads the pattern with
 * its own small scanner and hands it to `RegExp` only when it belongs to a subset whose cost it can bound:
 *
 * - top-level alternatives `a|b`, and no groups at all: a `(` or `)` anywhere returns null;
 * - atoms: a character that is not an RE2 metacharacter; a metacharacter escaped with a backslash; `\d \D \w \W`;
 *   `.`; a class `[...]` or `[^...]` of characters, ranges `a-f`, escaped metacharacters and `\d \w`;
 * - the anchors `^` and `$`;
 * - one quantifier directly after an atom: `? * + {n} {n,} {n,m}`, optionally lazy (`*?`).
 *
 * Every other escape (`\s \b \p \Q \x \1`, octal ...) and POSIX classes (`[[:alpha:]]`) mean something else, or
 * nothing, in one of the engines, so they stay with RE2, which also reports syntax errors as it always has.
 */

/** Characters with a meaning in RE2 syntax (the same set as the JavaScript engine's syntax characters). */
const meta = new Set(['\\', '^', '$', '.', '|', '?', '*', '+', '(', ')', '[', ']', '{', '}']);
/** ASCII in both engines: RE2 always, JavaScript with the `u` flag and without `i`. */
const perlClasses = new Set(['d', 'D', 'w', 'W']);
/** Inside a class we take only the positive ones; `[^\D]` and the like are rare and not worth the reasoning. */
const classPerlClasses = new Set(['d', 'w']);

/** RE2's own limit on a repeat count: above it RE2 refuses, so it must be RE2 that answers. */
const maxCount = 1_000;
/** How many repetition-count combinations the bounded quantifiers of one alternative may offer. */
const maxBoundedChoices = 64;

/*
 * The bound. In this subset every quantifier applies to a single atom that matches exactly one character, and there
 * are no groups, so an alternative is a flat sequence and the only choice points a backtracking engine has are the
 * repetition counts of its quantifiers (lazy or greedy only changes the order it tries them in). It explores at
 * most one path per combination of counts:
 *
 * - a bounded quantifier offers max-min+1 counts (`?` 2, `{n}` 1, `{n,m}` m-n+1); together they offer at most 64
 *   combinations, a constant;
 * - one unbounded quantifier (`*`, `+`, `{n,}`) offers at most n+1 counts over a value of n characters, and is matched
 *   once greedily then given back one character at a time, so each further count costs O(1) before the rest is tried;
 * - the rest of a path is a bounded number of single-character steps, at most m (the pattern expanded: `x{5}` is 5).
 *
 * So an alternative costs O(64 · n · m): linear in the value, within a constant of RE2's own O(n · m). Two unbounded
 * quantifiers would give O(n²) (`.*.*x`), k of them O(n^k), which is why a second one returns null. Alternatives are
 * tried one after another from the start of the value, so their costs add, they do not multiply.
 */

/** Reads `{n}`, `{n,}` or `{n,m}` from `at` (the `{`); null when it is not exactly that shape. */
function readBraces(pattern: string, at: number): { min: number; max: number; end: number } | null {
  let i = at + 1;
  const number = (): number | null => {
    const start = i;
    let value = 0;
    while (i < pattern.length && pattern[i]! >= '0' && pattern[i]! <= '9') {
      value = value * 10 + pattern.charCodeAt(i) - 48;
      i++;
      if (i - start > 4) return null; // over 1000 in any case
    }
    if (i === start) return null;
    // RE2 reads `{01}` as literal text, JavaScript as a count: leave leading zeros to RE2.
    if (i - start > 1 && pattern[start] === '0') return null;
    return value;
  };
  const min = number();
  if (min === null) return null;
  let max = min;
  if (pattern[i] === ',') {
    i++;
    if (pattern[i] === '}') max = Infinity;
    else {
      const upper = number();
      if (upper === null) return null;
      max = upper;
    }
  }
  if (pattern[i] !== '}') return null;
  if (min > maxCount || (max !== Infinity && max > maxCount) || min > max) return null;
  return { min, max, end: i };
}

/** A single character of a class (a literal or an escaped metacharacter) at `at` as a code point, or null. */
function readClassChar(pattern: string, at: number): { code: number; end: number } | null {
  const char = pattern[at];
  if (char === undefined || char === '[' || char === ']' || char === '-') return null;
  if (char === '\\') {
    const next = pattern[at + 1];
    return next !== undefined && meta.has(next) ? { code: next.charCodeAt(0), end: at + 1 } : null;
  }
  const code = pattern.codePointAt(at)!;
  return { code, end: code > 0xffff ? at + 1 : at }; // an astral character is two code units, one character
}

/** Reads a class from `at` (the `[`) to its `]`; returns the index of the `]`, or null outside the subset. */
function readClass(pattern: string, at: number): number | null {
  let i = at + 1;
  if (pattern[i] === '^') i++;
  const first = i;
  for (;;) {
    const char = pattern[i];
    if (char === undefined) return null;
    if (char === ']') return i === first ? null : i; // `[]a]` is a class of `]` and `a` in RE2, an empty class in JavaScript
    // `[[:alpha:]]` is a POSIX class in RE2 and a literal `[` in JavaScript (and `[[:alpha:]` an error in RE2 only).
    if (char === '[') return null;
    if (char === '-') {
      // A literal dash only first or last, where both engines agree it is one.
      if (i !== first && pattern[i + 1] !== ']') return null;
      i++;
      continue;
    }
    if (char === '\\' && pattern[i + 1] !== undefined && classPerlClasses.has(pattern[i + 1]!)) {
      i += 2;
      // `[\d-z]` is a syntax error in JavaScript with `u`, a dash in RE2.
      if (pattern[i] === '-' && pattern[i + 1] !== ']') return null;
      continue;
    }
    const low = readClassChar(pattern, i);
    if (!low) return null;
    i = low.end + 1;
    if (pattern[i] === '-' && pattern[i + 1] !== ']') {
      const high = readClassChar(pattern, i + 1);
      if (!high || high.code < low.code) return null;
      i = high.end + 1;
    }
  }
}

/** True when `pattern` is in the subset and within the cost bound described above. */
function isBounded(pattern: string): boolean {
  // A lone surrogate is not a character either engine reads the same way in a pattern. Past this check a high
  // surrogate is always the first half of an astral character.
  if (!pattern.isWellFormed()) return false;
  let unbounded = 0;
  let choices = 1;
  /** Whether the previous item is an atom a quantifier may follow (not an anchor, a `|` or another quantifier). */
  let atom = false;
  for (let i = 0; i < pattern.length; i++) {
    const char = pattern[i]!;
    if (char === '|') {
      // Alternatives are tried one after the other: each gets its own budget.
      unbounded = 0;
      choices = 1;
      atom = false;
    } else if (char === '^' || char === '$') {
      atom = false; // `^*` is a syntax error in JavaScript with `u`
    } else if (char === '.') {
      atom = true;
    } else if (char === '\\') {
      const next = pattern[i + 1];
      if (next === undefined || !(meta.has(next) || perlClasses.has(next))) return false;
      i++;
      atom = true;
    } else if (char === '[') {
      const end = readClass(pattern, i);
      if (end === null) return false;
      i = end;
      atom = true;
    } else if (char === '?' || char === '*' || char === '+' || char === '{') {
      if (!atom) return false; // nothing to repeat, or a second quantifier in a row (`a**`, `x?{3}`)
      let min: number;
      let max: number;
      if (char === '{') {
        const braces = readBraces(pattern, i);
        if (!braces) return false;
        ({ min, max } = braces);
        i = braces.end;
      } else {
        min = char === '+' ? 1 : 0;
        max = char === '?' ? 1 : Infinity;
      }
      if (pattern[i + 1] === '?') i++; // lazy: the same counts, tried in another order
      if (max === Infinity) {
        if (++unbounded > 1) return false;
      } else {
        choices *= max - min + 1;
        if (choices > maxBoundedChoices) return false;
      }
      atom = false;
    } else if (meta.has(char)) {
      return false; // `(`, `)`, and a stray `]` or `}`
    } else {
      // A literal; an astral one is two code units, one atom (both engines read the pattern by code point).
      if (pattern.charCodeAt(i) >= 0xd800 && pattern.charCodeAt(i) <= 0xdbff) i++;
      atom = true;
    }
  }
  return true;
}

/**
 * A whole-value matcher for `pattern` on the JavaScript engine (anchored, `.` matching any character, as Prometheus'
 * `^(?s:...)$` on RE2) when its backtracking is bounded, else null: the caller uses RE2.
 */
export function boundedRegex(pattern: string): ((text: string) => boolean) | null {
  if (!isBounded(pattern)) return null;
  let regex: RegExp;
  try {
    // `s`: `.` matches a newline, as RE2's DOTALL; `u`: `.` and classes take a code point, as RE2 takes a rune.
    regex = new RegExp(`^(?:${pattern})$`, 'su');
  } catch {
    return null; // RE2 then reports the syntax error, as before this shortcut
  }
  return (text) => regex.test(text);
}
