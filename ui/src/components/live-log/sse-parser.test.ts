/** Tests of the SSE parser: split chunks anywhere, CR/LF/CRLF, ids, event names, comments. */
import { describe, expect, test } from 'bun:test';
import { SseParser, type SseMessage } from './sse-parser';

const sample =
  ': connected\n\n' +
  'id: 1\ndata: {"type":"log","source":"out","text":"a","id":1}\n\n' +
  'id: 2\r\ndata: {"type":"log","source":"err","text":"b","id":2}\r\n\r\n' +
  ': waiting: machine gen-2 is offline\n\n' +
  'event: cutoff\ndata: {"type":"error","message":"slow"}\n\n' +
  'id: end\rdata: line one\rdata: line two\r\r';

function feedAll(chunks: string[]): { messages: SseMessage[]; parser: SseParser } {
  const parser = new SseParser();
  const messages: SseMessage[] = [];
  for (const chunk of chunks) messages.push(...parser.push(chunk));
  return { messages, parser };
}

describe('SseParser', () => {
  const whole = feedAll([sample]);

  test('parses events, ids, names and comments', () => {
    expect(whole.messages).toEqual([
      { kind: 'comment', text: 'connected' },
      { kind: 'event', event: 'message', data: '{"type":"log","source":"out","text":"a","id":1}', id: '1' },
      { kind: 'event', event: 'message', data: '{"type":"log","source":"err","text":"b","id":2}', id: '2' },
      { kind: 'comment', text: 'waiting: machine gen-2 is offline' },
      { kind: 'event', event: 'cutoff', data: '{"type":"error","message":"slow"}', id: '2' },
      { kind: 'event', event: 'message', data: 'line one\nline two', id: 'end' },
    ]);
    expect(whole.parser.lastEventId).toBe('end');
  });

  test('gives the same messages whatever the chunk boundaries', () => {
    for (let size = 1; size <= 7; size++) {
      const chunks: string[] = [];
      for (let i = 0; i < sample.length; i += size) chunks.push(sample.slice(i, i + size));
      expect(feedAll(chunks).messages).toEqual(whole.messages);
    }
    // Every single split point, including inside "\r\n".
    for (let at = 1; at < sample.length; at++) {
      expect(feedAll([sample.slice(0, at), sample.slice(at)]).messages).toEqual(whole.messages);
    }
  });

  test('keeps an unfinished event until its blank line', () => {
    const parser = new SseParser();
    expect(parser.push('id: 7\ndata: {"x"')).toEqual([]);
    expect(parser.push(':1}\n')).toEqual([]);
    expect(parser.push('\n')).toEqual([{ kind: 'event', event: 'message', data: '{"x":1}', id: '7' }]);
  });

  test('an event without data is not dispatched; field without colon counts as empty', () => {
    const parser = new SseParser();
    expect(parser.push('event: nothing\n\ndata\n\n')).toEqual([{ kind: 'event', event: 'message', data: '', id: null }]);
  });

  test('reset drops a half-read event but keeps the last id', () => {
    const parser = new SseParser();
    parser.push('id: 3\ndata: a\n\nid: 4\ndata: half');
    parser.reset();
    expect(parser.lastEventId).toBe('4');
    expect(parser.push('data: b\n\n')).toEqual([{ kind: 'event', event: 'message', data: 'b', id: '4' }]);
  });
});
