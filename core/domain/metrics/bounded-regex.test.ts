/** The bounded-backtracking shortcut takes only flat, cheap patterns, and agrees with RE2 (anchored, DOTALL) on every one it takes. */
import { expect, test } from 'bun:test';
import { RE2JS } from 're2js';
import { type SeededRandom, seededRandom } from '../../../tests/helpers/seeded-random.ts';
import { boundedRegex } from './bounded-regex.ts';

test('flat patterns with one unbounded repeat at most are taken; groups, other escapes, POSIX classes and costly repeats are not', () => {
  const taken = [
    '00000000-0000-4000-8000-00000000[0-9]{2}[a-f]{2}', // the bench's character class
    'a.c',
    '.+',
    'a*',
    'a*?b',
    '[ab]',
    '[^a-z\\d_]x',
    '[-a]|[a-]|[--]',
    '\\d{1,3}\\.\\d{1,3}',
    '\\w+-\\D\\W',
    '^a$',
    'a|b*|c{2,}',
    'x{1000}',
    '.{0,63}',
    'a?a?a?a?a?a?', // 2^6 = 64 combinations
    '[\\[\\]\\\\]',
    'é😀+\n',
    '',
  ];
  for (const pattern of taken) expect(boundedRegex(pattern), pattern).not.toBeNull();
  const refused = [
    '(.*){30}Z',
    '(a|aa)*',
    '(a)\\1', // a backreference
    '(?i)a',
    'a*b*', // two unbounded repeats: O(n²)
    '.*.*x',
    '\\d+\\.\\d+',
    '\\s+',
    '\\b',
    '\\pL',
    '\\Qa.b\\E',
    '\\x41',
    '\\1',
    '\\0',
    '\\-',
    '[[:alpha:]]',
    '[[:alpha:]', // RE2: missing closing ]; JavaScript: a class
    '[]a]',
    '[^]',
    '[a-z-0]',
    '[\\d-z]',
    '[\\s]',
    '[z-a]',
    'a{1,2000}',
    'a{1001}',
    'a{01}', // RE2 reads it as text
    'a{,3}',
    'a{2,1}',
    'x?{3}',
    'a**',
    'a*??',
    '*a',
    'a|*',
    '^*',
    'a?a?a?a?a?a?a?', // 2^7 = 128 combinations
    '.{0,64}',
    'a]',
    'a}',
    '\\',
    '[a',
    '\ud800',
  ];
  for (const pattern of refused) expect(boundedRegex(pattern), pattern).toBeNull();
});

test('what it takes matches as RE2 would: anchored, `.` matching a newline and an astral character, classes ASCII', () => {
  const cases: [string, string, boolean][] = [
    ['00000000-0000-4000-8000-00000000[0-9]{2}[a-f]{2}', '00000000-0000-4000-8000-0000000012ab', true],
    ['00000000-0000-4000-8000-00000000[0-9]{2}[a-f]{2}', '00000000-0000-4000-8000-0000000012abc', false],
    ['a.c', 'a\nc', true],
    ['a.c', 'a😀c', true],
    ['\\w', 'é', false],
    ['\\W', 'é', true],
    ['a$', 'a\n', false],
    ['a|b', 'ab', false],
  ];
  for (const [pattern, value, expected] of cases) {
    expect(boundedRegex(pattern)!(value), `${pattern} on ${JSON.stringify(value)}`).toBe(expected);
    expect(RE2JS.compile(pattern, RE2JS.DOTALL).testExact(value)).toBe(expected);
  }
});

test('the worst a taken pattern can do on a long value still finishes', () => {
  // 64 combinations of the bounded repeats times every count of `.*` over 20,000 characters that never match at `b`.
  const long = 'a'.repeat(20_000);
  for (const pattern of ['.*a?a?a?a?a?a?b', 'a?a?a?a?a?a?.*b', '[a-z]*a{0,63}b', 'x|y|.+a{1000}b']) {
    const matcher = boundedRegex(pattern);
    expect(matcher, pattern).not.toBeNull();
    expect(matcher!(long), pattern).toBe(false);
    expect(matcher!(long + 'b'), pattern).toBe(true);
  }
});

/** Literal characters, with a newline, a non-ASCII letter and an astral character among them. */
const letters = ['a', 'b', 'z', '0', '7', '_', '-', ' ', '\n', 'é', '😀'];
/** Text characters for values: the letters, the metacharacters as text, and lone surrogates (JSON can carry them). */
const valueChars = [...letters, '.', '*', '|', '[', ']', '\\', '{', '}', '^', '$', '\ud800', '\udc00'];

interface Piece {
  source: string;
  /** A character the piece matches, or may match, for building values that match the whole pattern now and then. */
  sample: () => string;
}

function classPiece(random: SeededRandom): Piece {
  const items: string[] = [];
  const members: string[] = [];
  for (let n = random.int(1, 3); n > 0; n--) {
    const kind = random.weighted({ letter: 4, range: 3, escaped: 1, perl: 1, odd: 1 });
    if (kind === 'letter') {
      const c = random.pick(letters);
      items.push(c);
      members.push(c);
    } else if (kind === 'range') {
      const [low, high] = random.pick([['a', 'f'], ['0', '9'], ['a', 'é'], ['z', '😀'], ['\n', 'a'], ['b', 'a']]);
      items.push(`${low}-${high}`);
      members.push(low!, high!);
    } else if (kind === 'escaped') {
      const c = random.pick(['.', '*', ']', '[', '\\', '-', '^', '|', '{', '}']);
      items.push(c === '-' ? '\\-' : `\\${c}`);
      members.push(c);
    } else if (kind === 'perl') {
      items.push(random.pick(['\\d', '\\w', '\\D', '\\s']));
      members.push(random.pick(['5', 'a', '_', ' ']));
    } else {
      items.push(random.pick(['-', '^', '.', '[:alpha:]', '[', '$', '(']));
      members.push(random.pick(['-', '^', '.', 'a']));
    }
  }
  const negated = random.chance(0.25);
  return { source: `[${negated ? '^' : ''}${items.join('')}]`, sample: () => (negated ? random.pick(valueChars) : random.pick(members)) };
}

function atomPiece(random: SeededRandom): Piece {
  const kind = random.weighted({ letter: 6, dot: 2, escaped: 1, perl: 2, class: 3, outside: 1 });
  if (kind === 'letter') {
    const c = random.pick(letters);
    return { source: c, sample: () => c };
  }
  if (kind === 'dot') return { source: '.', sample: () => random.pick(valueChars) };
  if (kind === 'escaped') {
    const c = random.pick(['.', '*', '|', '[', ']', '\\', '{', '}', '^', '$', '(', ')', '+', '?']);
    return { source: `\\${c}`, sample: () => c };
  }
  if (kind === 'perl') {
    const p = random.pick(['d', 'D', 'w', 'W']);
    const samples: Record<string, string[]> = { d: ['0', '7'], D: ['a', '\n', 'é'], w: ['a', '_', '7'], W: ['-', ' ', '😀', 'é'] };
    return { source: `\\${p}`, sample: () => random.pick(samples[p]!) };
  }
  if (kind === 'class') return classPiece(random);
  // A little outside the subset (or outside RE2): the shortcut must refuse these or still agree.
  const source = random.pick(['(', ')', '(a|b)', '(?i)a', '\\s', '\\b', '\\x41', '\\1', '\\pL', '[[:alpha:]]', '[]', ']', '}', '{', '\\']);
  return { source, sample: () => random.pick(valueChars) };
}

function quantifier(random: SeededRandom): { source: string; counts: () => number } {
  const kind = random.weighted({ none: 8, '?': 2, '*': 2, '+': 2, exact: 1, atLeast: 1, between: 2, odd: 1 });
  const lazy = () => (random.chance(0.15) ? '?' : '');
  const n = random.int(0, 3);
  const m = n + random.int(0, 3);
  switch (kind) {
    case 'none':
      return { source: '', counts: () => 1 };
    case '?':
      return { source: '?' + lazy(), counts: () => random.int(0, 1) };
    case '*':
      return { source: '*' + lazy(), counts: () => random.int(0, 3) };
    case '+':
      return { source: '+' + lazy(), counts: () => random.int(1, 3) };
    case 'exact':
      return { source: `{${n}}` + lazy(), counts: () => n };
    case 'atLeast':
      return { source: `{${n},}` + lazy(), counts: () => n + random.int(0, 2) };
    case 'between':
      return { source: `{${n},${m}}` + lazy(), counts: () => random.int(n, m) };
    default:
      return { source: random.pick(['**', '+*', '?{2}', '{,2}', '{01}', '{2,1}', '{1001}', '*??', '{1, 2}']), counts: () => random.int(0, 2) };
  }
}

/** A pattern of one to three alternatives, each a sequence of quantified atoms and anchors, and a value that may match it. */
function patternAndValue(random: SeededRandom): { pattern: string; witness: string } {
  const alternatives: string[] = [];
  const witnesses: string[] = [];
  for (let a = random.int(1, 3); a > 0; a--) {
    let source = '';
    let witness = '';
    for (let n = random.int(0, 4); n > 0; n--) {
      if (random.chance(0.08)) {
        source += random.pick(['^', '$']);
        continue;
      }
      const atom = atomPiece(random);
      const repeat = quantifier(random);
      source += atom.source + repeat.source;
      for (let count = repeat.counts(); count > 0; count--) witness += atom.sample();
    }
    alternatives.push(source);
    witnesses.push(witness);
  }
  return { pattern: alternatives.join('|'), witness: random.pick(witnesses) };
}

const randomValue = (random: SeededRandom) => Array.from({ length: random.int(0, 6) }, () => random.pick(valueChars)).join('');

test('agrees with RE2 on thousands of seeded random patterns and values', () => {
  const random = seededRandom(20261204);
  let taken = 0;
  let matched = 0;
  let unmatched = 0;
  for (let i = 0; i < 6_000; i++) {
    const { pattern, witness } = patternAndValue(random);
    const bounded = boundedRegex(pattern);
    if (!bounded) continue;
    taken++;
    const where = `${JSON.stringify(pattern)} (seed ${random.seed}, pattern ${i})`;
    let re2: RE2JS;
    try {
      re2 = RE2JS.compile(pattern, RE2JS.DOTALL);
    } catch (error) {
      throw new Error(`RE2 refuses ${where}, which the shortcut took: ${(error as Error).message}`);
    }
    const values = [witness, witness + random.pick(valueChars), witness.slice(1), ...Array.from({ length: 12 }, () => randomValue(random))];
    for (const value of values) {
      const expected = re2.testExact(value);
      expect(bounded(value), `${where} on ${JSON.stringify(value)}`).toBe(expected);
      if (expected) matched++;
      else unmatched++;
    }
  }
  // The comparison covered a real share of the patterns, and both answers.
  expect(taken).toBeGreaterThan(2_000);
  expect(matched).toBeGreaterThan(2_000);
  expect(unmatched).toBeGreaterThan(2_000);
});
