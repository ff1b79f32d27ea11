/**
 * Masks secret values in log text: every occurrence of a value becomes `***`, also when the tool printed it with
 * terminal escape sequences (colour, cursor moves, OSC hyperlinks), control characters (`\r` of progress output,
 * backspaces, tabs) or undecodable bytes (U+FFFD, NUL, lone surrogates) in or around it: a line is read as a terminal
 * shows it (those dropped), and a match there masks its whole span in the line, the escapes inside it included. Logs
 * are lines, so a multi-line value is masked line by line; pieces shorter than `minMaskLength` are left alone (masking
 * every "1" or "on" would make logs unreadable and tell which short strings are secret). A value printed in another
 * form (base64, URL-encoded, split by the tool across two lines) is not recognised.
 */

export const maskText = '***';
/** Shorter pieces are not masked; documented in docs/workspace-data.md (Environment variables). */
export const minMaskLength = 4;

export type Masker = (text: string) => string;

// The tokens a terminal does not show as text, after ECMA-48: CSI sequences (7- and 8-bit), other escape sequences
// (ESC ( B, ESC 7, and the introducers and terminators of OSC and the other string sequences, whose payload stays
// text so a secret inside a hyperlink's URL is still seen), C0/C1 controls and DEL, and an undecodable byte as the decoder
// or the sanitiser leaves it (U+FFFD, NUL, a lone surrogate): dropped too, so a stray byte next to or inside a
// value does not hide it. Each alternative is a run of disjoint character classes, so a failed attempt backtracks at
// most over its own run: linear in the line.
const escapesAndControls = String.raw`(?:\x1b\[|\x9b)[\x30-\x3f]*[\x20-\x2f]*[\x40-\x7e]|\x1b[\x20-\x2f]*[\x30-\x7e]|[\x01-\x1f\x7f-\x9f]|[\x00\ufffd]|[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]`;
const hiddenTokens = new RegExp(escapesAndControls, 'g');
// The same, with whole string sequences (OSC, DCS, SOS, PM, APC up to BEL or ST) hidden: a hyperlink around part of
// a value. The payload class excludes ESC, BEL and C1, so a failed attempt stops at the next sequence.
const hiddenTokensAndStrings = new RegExp(String.raw`(?:\x1b[\]PX^_]|[\x90\x98\x9d-\x9f])[^\x07\x1b\x80-\x9f]*(?:\x07|\x1b\\|\x9c)|${escapesAndControls}`, 'g');
const stringIntroducer = new RegExp(String.raw`\x1b[\]PX^_]|[\x90\x98\x9d-\x9f]`);
/** Text that is not plain: a line without any (the usual case) needs the literal scan only. Surrogates, valid pairs
 * included, go the long way too: one scan finds lone ones, and lines with emoji are few. */
const notPlain = new RegExp(String.raw`[\x00-\x1f\x7f-\x9f\ud800-\udfff\ufffd]`);
/** Undecodable bytes (or a surrogate): the pieces' garbled forms apply. */
const undecodable = new RegExp(String.raw`[\x00\ud800-\udfff\ufffd]`);

/** Where the text a terminal shows of a line (the hidden tokens dropped) came from: runs of shown text. */
interface Visible {
  text: string;
  /** Where each run starts in `text` and in the original. */
  runs: { at: number; from: number }[];
}

function visibleOf(original: string, tokens: RegExp): Visible {
  let text = '';
  const runs: Visible['runs'] = [];
  let last = 0;
  tokens.lastIndex = 0;
  for (let token = tokens.exec(original); token; token = tokens.exec(original)) {
    if (token.index > last) {
      runs.push({ at: text.length, from: last });
      text += original.slice(last, token.index);
    }
    last = token.index + token[0].length;
  }
  if (last < original.length) {
    runs.push({ at: text.length, from: last });
    text += original.slice(last);
  }
  return { text, runs };
}

const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

/** One alternation of literal strings, longest first (the first alternative that matches at a position wins). */
const alternation = (pieces: readonly string[]) => new RegExp(pieces.map(escapeRegExp).join('|'), 'g');

/**
 * `text` with every match of `pattern` in its visible text masked, from the match's first shown character to its
 * last, with the hidden tokens between them: `\x1b[31m***\x1b[0m` keeps its colour, `sec\x1b[1mret` is one `***`.
 */
function maskVisible(text: string, tokens: RegExp, pattern: RegExp): string {
  // The native replace shows whether there is anything to mask; the runs are worked out only when there is.
  pattern.lastIndex = 0;
  const found = pattern.test(text.replace(tokens, ''));
  pattern.lastIndex = 0;
  if (!found) return text;
  const visible = visibleOf(text, tokens);
  const { runs } = visible;
  let run = 0;
  // Where shown character `index` is in the original; matches come in order, so the run cursor only moves forward.
  const origin = (index: number) => {
    while (run + 1 < runs.length && runs[run + 1]!.at <= index) run++;
    return runs[run]!.from + (index - runs[run]!.at);
  };
  let masked = '';
  let done = 0;
  for (let match = pattern.exec(visible.text); match; match = pattern.exec(visible.text)) {
    const start = origin(match.index);
    const end = origin(match.index + match[0].length - 1) + 1;
    masked += text.slice(done, start) + maskText;
    done = end;
  }
  return masked + text.slice(done);
}

/**
 * The strings to look for: the visible content of each line of each value (escape sequences and controls dropped,
 * so a value holding a colour code or `\r` is masked by what it shows), trimmed, at least `minMaskLength` long,
 * longest first. A line with `\r` also gives its `\r`-separated parts (a tool that rewrites line endings prints them
 * apart).
 */
export function maskPieces(values: Iterable<string>): string[] {
  const pieces = new Set<string>();
  const add = (text: string) => {
    const piece = visibleOf(text, hiddenTokens).text.trim();
    if (piece.length >= minMaskLength) pieces.add(piece);
  };
  for (const value of values) {
    for (const line of value.split('\n')) {
      add(line);
      if (line.includes('\r')) for (const part of line.split('\r')) add(part);
    }
  }
  // Longest first, so a value that contains another is masked whole.
  return [...pieces].sort((a, b) => b.length - a.length);
}

/** A masker for `values`; null when nothing is long enough to mask (the caller skips the work). */
export function createMasker(values: Iterable<string>): Masker | null {
  const pieces = maskPieces(values);
  if (pieces.length === 0) return null;
  // One alternation of literals: the engine scans each line once, 0.02-0.04 us per plain line whether there are 5
  // values or 100 (a loop of includes() took 7 us with 100). Every reading below is matched with literals too: a
  // pattern with an optional "ignorable" part between characters took 190 ms on one crafted 64 KiB line, literals on
  // the visible text take under 1 ms. A line with escapes or controls costs 0.2-0.3 us.
  const literal = alternation(pieces);
  // Compiled on the first line that needs it: most runs print no undecodable byte at all.
  let garbledForms: RegExp | null = null;
  const garbled = () => {
    // A value printed in another encoding shows U+FFFD for its non-ASCII characters, which the visible text drops:
    // the piece without them is looked for as well, when it keeps enough of the piece to say little about it.
    if (!garbledForms) {
      const forms = pieces
        .map((piece) => ({ piece, form: piece.replace(/[^ -~]+/g, '') }))
        .filter(({ piece, form }) => form !== piece && form.length >= minMaskLength && form.length * 2 >= piece.length)
        .map(({ form }) => form);
      garbledForms = forms.length === 0 ? literal : alternation([...new Set([...pieces, ...forms])].sort((a, b) => b.length - a.length));
    }
    return garbledForms;
  };
  return (text) => {
    if (!notPlain.test(text)) return text.replace(literal, maskText);
    const pattern = undecodable.test(text) ? garbled() : literal;
    // What a terminal shows first, so a value whose own `\r` or escape hides a shorter piece is masked whole.
    let masked = maskVisible(text, hiddenTokens, pattern);
    if (stringIntroducer.test(masked)) masked = maskVisible(masked, hiddenTokensAndStrings, pattern);
    // Then the value as printed, byte for byte, where the visible reading differs (an ESC [ right before it).
    return masked.replace(literal, maskText);
  };
}
