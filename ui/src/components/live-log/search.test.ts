/** Tests of log search: plain case-insensitive matching and highlighting across styled segments. */
import { describe, expect, test } from 'bun:test';
import { parseAnsi, stripAnsi } from './ansi';
import { containsMatch, highlightSegments, matchRanges, matcherOf } from './search';

describe('search', () => {
  test('matches plain text, case-insensitively, with pattern characters taken literally', () => {
    const matcher = matcherOf('a.B')!;
    expect(containsMatch(matcher, 'xx A.b yy')).toBe(true);
    expect(containsMatch(matcher, 'aXb')).toBe(false);
    expect(matchRanges(matcher, 'a.b A.B')).toEqual([
      [0, 3],
      [4, 7],
    ]);
    expect(matcherOf('')).toBeNull();
  });

  test('highlights a match that spans two styled segments', () => {
    const raw = 'GET \x1b[32m200\x1b[0m OK';
    const ranges = matchRanges(matcherOf('t 20')!, stripAnsi(raw));
    expect(highlightSegments(parseAnsi(raw), ranges)).toEqual([
      { text: 'GE', className: '', match: false },
      { text: 'T ', className: '', match: true },
      { text: '20', className: 'ansi-fg-2', match: true },
      { text: '0', className: 'ansi-fg-2', match: false },
      { text: ' OK', className: '', match: false },
    ]);
  });

  test('without ranges the segments stay whole', () => {
    expect(highlightSegments([{ text: 'abc', className: 'ansi-bold' }], [])).toEqual([{ text: 'abc', className: 'ansi-bold', match: false }]);
  });

  test('several matches in one segment', () => {
    const pieces = highlightSegments([{ text: 'abab', className: '' }], matchRanges(matcherOf('b')!, 'abab'));
    expect(pieces.map((p) => [p.text, p.match])).toEqual([
      ['a', false],
      ['b', true],
      ['a', false],
      ['b', true],
    ]);
  });
});
