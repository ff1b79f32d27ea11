import { describe, expect, test } from 'bun:test';
import { cutMarker, LineSplitter } from './line-splitter.ts';

function collect(max?: number) {
  const lines: string[] = [];
  const splitter = new LineSplitter((line) => lines.push(line), max);
  return { lines, splitter };
}

const bytes = (text: string) => new TextEncoder().encode(text);

describe('LineSplitter', () => {
  test('joins partial lines across chunks and keeps a last line without newline', () => {
    const { lines, splitter } = collect();
    splitter.push(bytes('hel'));
    splitter.push(bytes('lo\nwor'));
    splitter.push(bytes('ld\r\n\nlast'));
    expect(lines).toEqual(['hello', 'world', '']);
    splitter.end();
    expect(lines).toEqual(['hello', 'world', '', 'last']);
  });

  test('a multi-byte character split across chunks survives', () => {
    const { lines, splitter } = collect();
    const encoded = bytes('π≈3.14 ✓\n');
    for (const byte of encoded) splitter.push(new Uint8Array([byte]));
    splitter.end();
    expect(lines).toEqual(['π≈3.14 ✓']);
  });

  test('an overlong line is cut with a marker and the rest of it dropped, in one chunk or many', () => {
    const { lines, splitter } = collect(10);
    splitter.push(bytes(`${'a'.repeat(25)}\nok\n`));
    for (let i = 0; i < 5; i++) splitter.push(bytes('b'.repeat(7)));
    splitter.push(bytes('bb\nafter'));
    splitter.end();
    expect(lines).toEqual([`${'a'.repeat(10)}${cutMarker(10)}`, 'ok', `${'b'.repeat(10)}${cutMarker(10)}`, 'after']);
  });

  test('an empty stream gives no line', () => {
    const { lines, splitter } = collect();
    splitter.end();
    expect(lines).toEqual([]);
  });
});
