import { Type } from '@sinclair/typebox';
import { describe, expect, test } from 'bun:test';
import { fakeService, granted } from './test-rest.ts';
import { defineTool, runTool, toolListing } from './tool-registry.ts';

const echo = defineTool({
  name: 'echo',
  title: 'Echo',
  description: 'answers its argument',
  input: Type.Object({ word: Type.String({ minLength: 1 }), times: Type.Optional(Type.Integer({ minimum: 1, default: 2 })) }, { additionalProperties: false }),
  output: Type.Object({ said: Type.String() }),
  annotations: { readOnlyHint: true },
  run: async ({ word, times }) => ({ said: word.repeat(times ?? 1) }),
});

const liar = defineTool({ ...echo, name: 'liar', run: async () => ({ said: 42 }) as unknown as { said: string } });

describe('runTool', () => {
  test('counts the call, then answers structured content and the same JSON as text; defaults applied', async () => {
    const { context, asked } = fakeService({ 'POST /usage/ai-tool-calls': granted });
    expect(await runTool(echo, { word: 'ab' }, context)).toEqual({ content: [{ type: 'text', text: '{"said":"abab"}' }], structuredContent: { said: 'abab' } });
    expect(asked).toEqual(['POST /usage/ai-tool-calls']);
  });

  test('arguments outside the schema: a bad_request tool error naming them, not counted', async () => {
    const { context, asked } = fakeService({ 'POST /usage/ai-tool-calls': granted });
    const result = await runTool(echo, { word: '', extra: 1 }, context);
    expect(result.isError).toBe(true);
    const error = JSON.parse(result.content[0]!.text);
    expect(error).toMatchObject({ error: 'bad_request', status: 400 });
    expect(error.message).toContain('/word');
    expect(asked).toEqual([]);
  });

  test('an exhausted budget: a writing tool never starts, a reading one has its answer dropped', async () => {
    let ran = false;
    const writer = defineTool({ ...echo, annotations: { readOnlyHint: false }, run: async () => ((ran = true), { said: 'x' }) });
    const { context } = fakeService({
      'POST /usage/ai-tool-calls': () => Response.json({ error: 'ai_budget_exhausted', message: 'the budget of 100 calls is used up' }, { status: 429 }),
    });
    const exhausted = { error: 'ai_budget_exhausted', message: 'the budget of 100 calls is used up', status: 429 };
    expect(JSON.parse((await runTool(writer, { word: 'a' }, context)).content[0]!.text)).toEqual(exhausted);
    expect(ran).toBe(false);
    const read = await runTool(echo, { word: 'a' }, context);
    expect(read.structuredContent).toBeUndefined();
    expect(JSON.parse(read.content[0]!.text)).toEqual(exhausted);
  });

  test('every tool, read or write, runs only after its count is granted', async () => {
    const order: string[] = [];
    const { context } = fakeService({
      'POST /usage/ai-tool-calls': async () => {
        order.push('count');
        return granted(new Request('http://x/'), new URL('http://x/'));
      },
    });
    const noting = (name: string, extra: object) => defineTool({ ...echo, name, ...extra, run: async () => (order.push(name), { said: name }) });
    await runTool(noting('read', {}), { word: 'a' }, context);
    await runTool(noting('write', { annotations: { readOnlyHint: false } }), { word: 'a' }, context);
    expect(order).toEqual(['count', 'read', 'count', 'write']);
  });

  test('a service without the budget route runs the call uncounted', async () => {
    const { context } = fakeService({});
    expect((await runTool(echo, { word: 'a' }, context)).structuredContent).toEqual({ said: 'aa' });
  });

  test('an answer outside its own output schema is an internal_error, never handed out', async () => {
    const { context } = fakeService({ 'POST /usage/ai-tool-calls': granted });
    const result = await runTool(liar, { word: 'a' }, context);
    expect(result.structuredContent).toBeUndefined();
    expect(JSON.parse(result.content[0]!.text)).toMatchObject({ error: 'internal_error', status: 500 });
  });

  test('the listing is plain JSON Schema with the annotations and openWorldHint false', () => {
    const listing = toolListing(echo);
    expect(JSON.parse(JSON.stringify(listing))).toEqual(listing);
    expect(listing.annotations).toEqual({ title: 'Echo', openWorldHint: false, readOnlyHint: true });
    expect(listing.inputSchema).toMatchObject({ type: 'object', required: ['word'], additionalProperties: false });
  });
});
