/** Plain, case-insensitive substring search in log lines, and cutting styled segments at the matches to highlight them. */
import type { AnsiSegment } from './ansi';

/** A segment piece, marked when it is part of a match. */
export interface HighlightedSegment extends AnsiSegment {
  match: boolean;
}

/** A case-insensitive matcher of the query as plain text (no pattern syntax), or null for an empty query. */
export function matcherOf(query: string): RegExp | null {
  if (!query) return null;
  return new RegExp(query.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'), 'giu');
}

/** Whether the text contains the query. */
export function containsMatch(matcher: RegExp, text: string): boolean {
  matcher.lastIndex = 0;
  return matcher.test(text);
}

/** The [start, end) ranges of every match in the text. */
export function matchRanges(matcher: RegExp, text: string): [number, number][] {
  const ranges: [number, number][] = [];
  matcher.lastIndex = 0;
  for (let found = matcher.exec(text); found; found = matcher.exec(text)) {
    if (found[0].length === 0) {
      matcher.lastIndex++;
      continue;
    }
    ranges.push([found.index, found.index + found[0].length]);
  }
  return ranges;
}

/** Cuts the segments (whose texts joined are the plain line) at the ranges, marking the pieces inside them. */
export function highlightSegments(segments: readonly AnsiSegment[], ranges: readonly [number, number][]): HighlightedSegment[] {
  if (ranges.length === 0) return segments.map((segment) => ({ ...segment, match: false }));
  const out: HighlightedSegment[] = [];
  let offset = 0;
  let r = 0;
  for (const segment of segments) {
    const segmentEnd = offset + segment.text.length;
    let at = offset;
    while (at < segmentEnd) {
      while (r < ranges.length && ranges[r]![1] <= at) r++;
      const range = ranges[r];
      if (!range || range[0] >= segmentEnd) {
        out.push({ text: segment.text.slice(at - offset), className: segment.className, match: false });
        at = segmentEnd;
      } else if (range[0] > at) {
        out.push({ text: segment.text.slice(at - offset, range[0] - offset), className: segment.className, match: false });
        at = range[0];
      } else {
        const end = Math.min(range[1], segmentEnd);
        out.push({ text: segment.text.slice(at - offset, end - offset), className: segment.className, match: true });
        at = end;
      }
    }
    offset = segmentEnd;
  }
  return out;
}
