import { describe, expect, test } from 'bun:test';
import { boundCallResult } from './remote-tool-result.ts';

const bytes = (value: unknown) => new TextEncoder().encode(JSON.stringify(value)).length;

describe('boundCallResult', () => {
  test('a result within the budget passes as received', () => {
    const result = { content: [{ type: 'text', text: 'hi' }], structuredContent: { a: 1 }, isError: false };
    expect(boundCallResult(result, 1024)).toEqual({ ...result, truncated: false });
    expect(boundCallResult({ content: [{ type: 'text', text: 'x' }] }, 1024)).toEqual({ content: [{ type: 'text', text: 'x' }], isError: false, truncated: false });
  });

  test('a long text is cut to fit, later items left out, and the note says so', () => {
    const result = { content: [{ type: 'text', text: 'x'.repeat(20_000) }, { type: 'text', text: 'later' }], isError: true };
    const bounded = boundCallResult(result, 8 * 1024);
    expect(bounded.truncated).toBe(true);
    expect(bounded.isError).toBe(true);
    expect(bytes(bounded)).toBeLessThanOrEqual(8 * 1024);
    expect((bounded.content[0] as { text: string }).text.length).toBeGreaterThan(6 * 1024);
    expect(bounded.content).toHaveLength(2);
    expect((bounded.content[1] as { text: string }).text).toContain('left out: the end of content item 1, content items 2 to 2');
  });

  test('multi-byte and escaped text never passes the budget nor splits a surrogate pair', () => {
    const text = '😀"\n'.repeat(5_000);
    const bounded = boundCallResult({ content: [{ type: 'text', text }] }, 4096);
    expect(bytes(bounded)).toBeLessThanOrEqual(4096);
    const kept = (bounded.content[0] as { text: string }).text;
    expect(text.startsWith(kept)).toBe(true);
    expect(kept.length).toBeGreaterThan(0);
    expect(/[\uD800-\uDBFF]$/.test(kept)).toBe(false);
  });

  test('structured content is kept whole when it fits half the budget, else dropped and named', () => {
    const small = boundCallResult({ content: [{ type: 'text', text: 'y'.repeat(10_000) }], structuredContent: { ok: true } }, 4096);
    expect(small.structuredContent).toEqual({ ok: true });
    const large = boundCallResult({ content: [{ type: 'text', text: 'short' }], structuredContent: { blob: 'z'.repeat(10_000) } }, 4096);
    expect(large.structuredContent).toBeUndefined();
    expect(large.content[0]).toEqual({ type: 'text', text: 'short' });
    expect((large.content.at(-1) as { text: string }).text).toContain('left out: structuredContent');
  });

  test('an item that is not text and does not fit is left out whole', () => {
    const image = { type: 'image', mimeType: 'image/png', data: 'A'.repeat(10_000) };
    const bounded = boundCallResult({ content: [{ type: 'text', text: 'caption' }, image] }, 4096);
    expect(bounded.content[0]).toEqual({ type: 'text', text: 'caption' });
    expect(bounded.content).toHaveLength(2);
    expect((bounded.content[1] as { text: string }).text).toContain('left out: content item 2');
  });
});
