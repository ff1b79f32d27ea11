import { describe, expect, test } from 'bun:test';
import { readSse, type SseItem } from './sse-reader.ts';

/** A body that sends `chunks` and then stays open (a live stream), unless `end`. */
function body(chunks: string[], end = true): ReadableStream<Uint8Array> {
  const encoder = new TextEncoder();
  return new ReadableStream({
    start(controller) {
      for (const chunk of chunks) controller.enqueue(encoder.encode(chunk));
      if (end) controller.close();
    },
  });
}

async function all(stream: ReadableStream<Uint8Array>, signal?: AbortSignal): Promise<SseItem[]> {
  const items: SseItem[] = [];
  for await (const item of readSse(stream, signal)) items.push(item);
  return items;
}

describe('readSse', () => {
  test('events split across chunks, comments, ids, event names and multi-line data', async () => {
    const items = await all(body([': connected\n\nid: 1\nda', 'ta: {"type":"log"}\n\n', ': following\r\n\r\nevent: cutoff\ndata: a\ndata: b\n\nid: end\ndata: {"type":"done"}\n\n']));
    expect(items).toEqual([
      { kind: 'comment', text: 'connected' },
      { kind: 'event', id: '1', event: null, data: '{"type":"log"}' },
      { kind: 'comment', text: 'following' },
      { kind: 'event', id: '1', event: 'cutoff', data: 'a\nb' },
      { kind: 'event', id: 'end', event: null, data: '{"type":"done"}' },
    ]);
  });

  test('the signal ends a read that waits on a stream that stays open', async () => {
    const stop = new AbortController();
    const reading = all(body(['data: x\n\n'], false), stop.signal);
    stop.abort();
    expect(await reading).toEqual([{ kind: 'event', id: null, event: null, data: 'x' }]);
  });
});
