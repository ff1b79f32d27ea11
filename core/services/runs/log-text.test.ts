/** The stored-log byte count agrees with a real UTF-8 encoder for every kind of character. */
import { expect, test } from 'bun:test';
import { storableLine, utf8Bytes } from './log-text.ts';

test('utf8Bytes equals the encoded length: ASCII, 2-, 3- and 4-byte characters, replaced NUL and lone surrogates', () => {
  const samples = ['', 'plain ascii', 'é ü ß', '€ 中文 ☃', '😀 𝄞 and text', 'x\u0000y', 'lone \uD800 high', 'lone \uDC00 low', 'end \uD83D'];
  for (const sample of samples) {
    const text = storableLine(sample);
    expect(utf8Bytes(text)).toBe(new TextEncoder().encode(text).length);
  }
  // Seeded mix over the whole BMP and beyond.
  let seed = 7;
  const next = () => (seed = (seed * 1_103_515_245 + 12_345) % 2 ** 31);
  for (let round = 0; round < 200; round++) {
    let text = '';
    for (let i = 0; i < 50; i++) text += String.fromCodePoint(next() % 0x10ffff);
    const clean = storableLine(text);
    expect(utf8Bytes(clean)).toBe(new TextEncoder().encode(clean).length);
  }
});
