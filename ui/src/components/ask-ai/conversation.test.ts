import { describe, expect, test } from 'bun:test';
import { type AssistantTurn, applyEvent, historyOf, parseFrame, readEvents } from './conversation';

const start: AssistantTurn = { role: 'assistant', content: '', toolCalls: [], state: 'streaming' };

describe('ASK AI conversation', () => {
  test('builds an answer from its events: the call, its result, the text, done', () => {
    let turn = applyEvent(start, { event: 'tool_call', data: { id: 'c1', name: 'list_runs', arguments: { limit: 5 } } });
    turn = applyEvent(turn, { event: 'tool_result', data: { id: 'c1', name: 'list_runs', ok: true, summary: '{"items":[]}' } });
    turn = applyEvent(turn, { event: 'delta', data: { content: 'No runs ' } });
    turn = applyEvent(turn, { event: 'delta', data: { content: 'yet.' } });
    turn = applyEvent(turn, { event: 'done', data: {} });
    expect(turn).toEqual({
      role: 'assistant',
      content: 'No runs yet.',
      toolCalls: [{ id: 'c1', name: 'list_runs', arguments: { limit: 5 }, ok: true, summary: '{"items":[]}' }],
      state: 'done',
    });
  });

  test('an error event fails the answer with its message', () => {
    expect(applyEvent(start, { event: 'error', data: { message: 'budget used up' } })).toMatchObject({ state: 'failed', error: 'budget used up' });
  });

  test('the history sent holds the text of each turn', () => {
    expect(historyOf([{ role: 'user', content: 'hi' }, { ...start, content: '' }, { ...start, content: 'hello' }])).toEqual([
      { role: 'user', content: 'hi' },
      { role: 'assistant', content: 'hello' },
    ]);
  });

  test('reads events across chunk boundaries, skipping comments', async () => {
    expect(parseFrame(': keep-alive')).toBeNull();
    const text = ': ASK AI\n\nevent: delta\ndata: {"content":"a"}\n\nevent: done\ndata: {}\n\n';
    const body = new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = new TextEncoder().encode(text);
        for (let i = 0; i < bytes.length; i += 7) controller.enqueue(bytes.slice(i, i + 7));
        controller.close();
      },
    });
    const events: string[] = [];
    await readEvents(body, (event) => events.push(event.event));
    expect(events).toEqual(['delta', 'done']);
  });
});
