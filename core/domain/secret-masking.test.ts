/** Secret masking: literal values, multi-line values, and values printed with escapes, controls or undecodable bytes in or around them. */
import { describe, expect, test } from 'bun:test';
import { createMasker, maskPieces } from './secret-masking.ts';

describe('secret masking', () => {
  test('every occurrence becomes ***; the longest value first; short values are left alone', () => {
    const mask = createMasker(['hunter2!', 'hunter2!-extended', 'abc'])!;
    expect(mask('a hunter2! b hunter2!-extended c hunter2!')).toBe('a *** b *** c ***');
    expect(mask('abc is short')).toBe('abc is short');
    expect(mask('nothing here')).toBe('nothing here');
  });

  test('multi-line values are masked line by line, trimmed; nothing to mask gives no masker', () => {
    expect(maskPieces(['  line-one \r\nline-two\n\nxy'])).toEqual(['line-one', 'line-two']);
    const mask = createMasker(['-----BEGIN KEY-----\nMIIBOgIBAAJBAKj34GkxFhD\n-----END KEY-----'])!;
    expect(mask('MIIBOgIBAAJBAKj34GkxFhD')).toBe('***');
    expect(mask('-----BEGIN KEY-----')).toBe('***');
    expect(createMasker(['', 'ab', '   '])).toBeNull();
  });
});

describe('secret masking with characters that mean something to a regular expression', () => {
  test('values are matched literally', () => {
    const mask = createMasker(['a.b*c', '$(x)|y', 'p[a]th\\', '$&$1'])!;
    expect(mask('a.b*c aXbbc $(x)|y p[a]th\\ $&$1')).toBe('*** aXbbc *** *** ***');
  });
});

const secret = 'secret-value-42';
const ascii = (text: string) => [...text].map((c) => c.charCodeAt(0));
/** Bytes as the agent's line splitter decodes them (invalid UTF-8 becomes U+FFFD). */
const decoded = (...bytes: (number | string)[]) =>
  new TextDecoder('utf-8', { fatal: false }).decode(new Uint8Array(bytes.flatMap((b) => (typeof b === 'string' ? ascii(b) : [b]))));

describe('secret masking against escapes, controls and undecodable bytes', () => {
  const mask = createMasker([secret, 'pässwört-9', '\x1b[1mbold-secret\x1b[0m', 'abc\rdefgh'])!;

  test('ANSI colour and cursor sequences around a value keep their place; inside it they are masked with it', () => {
    expect(mask(`\x1b[31m${secret}\x1b[0m`)).toBe('\x1b[31m***\x1b[0m');
    expect(mask('sec\x1b[1mret-val\x1b[0mue-42 done')).toBe('*** done');
    expect(mask('secret\x1b[2K\x1b[1G-value-42')).toBe('***');
    // 8-bit CSI, a charset switch and a keypad mode escape.
    expect(mask('secret-\x9b1mvalue\x1b(B-4\x1b=2')).toBe('***');
  });

  test('OSC sequences: around or inside a value (hyperlink, title), and a value inside their payload', () => {
    expect(mask(`\x1b]8;;https://example.test/\x1b\\${secret}\x1b]8;;\x1b\\`)).toBe('\x1b]8;;https://example.test/\x1b\\***\x1b]8;;\x1b\\');
    expect(mask('secret-\x1b]0;window title\x07value-42')).toBe('***');
    expect(mask('secret-val\x1b]8;;https://x.test/\x1b\\ue-42\x1b]8;;\x1b\\')).toBe('***\x1b]8;;\x1b\\');
    expect(mask(`\x1b]8;;https://x.test/?token=${secret}\x1b\\link\x1b]8;;\x1b\\`)).toBe('\x1b]8;;https://x.test/?token=***\x1b\\link\x1b]8;;\x1b\\');
  });

  test('\\r (progress output), backspaces, tabs and other controls inside a value', () => {
    expect(mask('progress 10%\rsecret-va\rlue-42')).toBe('progress 10%\r***');
    expect(mask('secret-\bvalue-42')).toBe('***');
    expect(mask('secret\t-value-42\u007f')).toBe('***\u007f');
    expect(mask('secret-value\u0085-42')).toBe('***');
  });

  test('an invalid byte next to or inside the printed value; NUL and lone surrogates as the sanitiser sees them', () => {
    expect(mask(decoded('secret-', 0xff, 'value-42'))).toBe('***');
    expect(mask(decoded(0xc3, secret, 0xe2, 0x82))).toBe('\ufffd***\ufffd');
    expect(mask(decoded('secret-va', 0xe2, 0x82, 'lue-42'))).toBe('***');
    expect(mask('secret-val\u0000ue-42')).toBe('***');
    expect(mask('secret-val\ufffdue-42')).toBe('***');
    expect(mask('secret-\ud800value-42 and \udc00secret-value-42')).toBe('*** and \udc00***');
    // A non-ASCII value printed in Latin-1: its non-ASCII characters become U+FFFD.
    expect(mask(decoded('p', 0xe4, 'ssw', 0xf6, 'rt-9'))).toBe('***');
    expect(mask(decoded('p', 0xc3, 0xa4, 'ssw', 0xc3, 0xb6, 'rt-9'))).toBe('***');
  });

  test('a value that itself holds escapes or \\r is masked by what it shows, printed either way', () => {
    expect(maskPieces(['\x1b[1mbold-secret\x1b[0m', 'abc\rdefgh'])).toEqual(['bold-secret', 'abcdefgh', 'defgh']);
    expect(mask('bold-secret')).toBe('***');
    expect(mask('say \x1b[1mbold-secret\x1b[0m')).toBe('say \x1b[1m***\x1b[0m');
    expect(mask('abc\rdefgh')).toBe('***');
    expect(mask('abcdefgh')).toBe('***');
    expect(mask('defgh')).toBe('***');
  });

  test('the value printed byte for byte is masked even where a terminal would read it otherwise', () => {
    // "ESC [ s" is a CSI sequence to a terminal, which would show "ecret-value-42"; the bytes still hold the value.
    expect(mask(`\x1b[${secret}`)).toBe('\x1b[***');
  });

  test('plain lines, short values and lines without the value are left as they are, escapes and all', () => {
    for (const line of ['plain line', 'tab\tseparated', '\x1b[32mINFO\x1b[0m ok\r', decoded('bad ', 0xff, ' byte'), 'emoji 😀 here', 'secret-value-4']) {
      expect(mask(line)).toBe(line);
    }
  });

  test('lines built to slow a backtracking matcher come back as they are (every form is matched as literals)', () => {
    const long = createMasker(['a'.repeat(2000) + 'X', 'ä'.repeat(2000) + 'Y', secret])!;
    const size = 64 * 1024;
    const lines = [
      '\x1b['.repeat(size / 2),
      '\x1b]' + 'a'.repeat(size),
      '\x1b]aa'.repeat(size / 4),
      `${secret.slice(0, -1)}\x1b[0m`.repeat(size / 16),
      '\ufffdä'.repeat(size / 2),
      '\ufffda'.repeat(size / 2),
      'a\t'.repeat(size / 2),
    ];
    for (const line of lines) expect(long(line)).toBe(line);
  });
});
