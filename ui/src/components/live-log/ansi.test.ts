/** Tests of the ANSI parser: SGR colours and bold to classes, other escapes stripped, never text lost. */
import { describe, expect, test } from 'bun:test';
import { parseAnsi, stripAnsi } from './ansi';

describe('parseAnsi', () => {
  test('plain text is one unstyled segment', () => {
    expect(parseAnsi('hello <b>world</b>')).toEqual([{ text: 'hello <b>world</b>', className: '' }]);
    expect(parseAnsi('')).toEqual([{ text: '', className: '' }]);
  });

  test('colours, bright colours, bold and reset', () => {
    expect(parseAnsi('a\x1b[31mred\x1b[1;92mbold green\x1b[0m plain')).toEqual([
      { text: 'a', className: '' },
      { text: 'red', className: 'ansi-fg-1' },
      { text: 'bold green', className: 'ansi-fg-10 ansi-bold' },
      { text: ' plain', className: '' },
    ]);
  });

  test('backgrounds, default colour codes and empty reset', () => {
    expect(parseAnsi('\x1b[44;37mx\x1b[39my\x1b[mz')).toEqual([
      { text: 'x', className: 'ansi-fg-7 ansi-bg-4' },
      { text: 'y', className: 'ansi-bg-4' },
      { text: 'z', className: '' },
    ]);
  });

  test('256 and true colours: low indexes map, others are skipped with their arguments', () => {
    expect(parseAnsi('\x1b[38;5;3mA\x1b[38;2;10;20;30;1mB')).toEqual([
      { text: 'A', className: 'ansi-fg-3' },
      { text: 'B', className: 'ansi-fg-3 ansi-bold' },
    ]);
  });

  test('other escapes are stripped: cursor moves, erase, OSC titles and links, charset', () => {
    const line = '\x1b[2K\x1b[1Gdone \x1b]0;title\x07\x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\ \x1b(Bok\x1b';
    expect(parseAnsi(line)).toEqual([{ text: 'done link ok', className: '' }]);
    expect(stripAnsi(line)).toBe('done link ok');
  });

  test('an unfinished sequence at the end is dropped', () => {
    expect(stripAnsi('abc\x1b[31')).toBe('abc');
    expect(parseAnsi('abc\x1b[31')).toEqual([{ text: 'abc', className: '' }]);
  });

  test('stripAnsi keeps the text of styled lines', () => {
    expect(stripAnsi('\x1b[1m\x1b[32m✓\x1b[0m status is 200')).toBe('✓ status is 200');
  });
});
