import { describe, expect, test } from 'bun:test';
import { Elysia, t, type ValidationError } from 'elysia';
import { choicesOf, describeValidationError } from './validation-message.ts';

/** The message a real Elysia route produces for this body. */
async function messageFor(schema: Parameters<typeof t.Object>[0], body: unknown): Promise<string> {
  let message = '';
  const app = new Elysia()
    .onError(({ code, error }) => {
      if (code === 'VALIDATION') message = describeValidationError(error as ValidationError).message;
      return new Response(null, { status: 400 });
    })
    .post('/', () => 'ok', { body: t.Object(schema) });
  const response = await app.handle(new Request('http://localhost/', { method: 'POST', headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }));
  expect(response.status).toBe(400);
  return message;
}

describe('validation messages', () => {
  test('a choice names its values and what was sent, not the values\' types', async () => {
    const tool = t.Union([t.Literal('k6'), t.Literal('jmeter')]);
    expect(await messageFor({ tool }, { tool: 'wrk' })).toBe('body field "tool": must be one of k6, jmeter (got "wrk")');
    expect(await messageFor({ tool }, { tool: 5 })).toBe('body field "tool": must be one of k6, jmeter (got 5)');
  });

  test('a nullable choice lists null; a choice inside an array names the item', async () => {
    const status = t.Optional(t.Nullable(t.Union([t.Literal('draft'), t.Literal('active')])));
    expect(await messageFor({ status }, { status: 'gone' })).toBe('body field "status": must be one of draft, active, null (got "gone")');
    const scopes = t.Array(t.Union([t.Literal('runs:read'), t.Literal('runs:write')]));
    expect(await messageFor({ scopes }, { scopes: ['runs:read', 'root'] })).toBe('body field "scopes.1": must be one of runs:read, runs:write (got "root")');
  });

  test('a long value is cut; other errors keep their own summary', async () => {
    const tool = t.Union([t.Literal('k6'), t.Literal('jmeter')]);
    const message = await messageFor({ tool }, { tool: 'x'.repeat(500) });
    expect(message.length).toBeLessThan(120);
    expect(message).toEndWith('...)');
    expect(await messageFor({ name: t.String({ maxLength: 3 }) }, { name: 'long' })).toContain('body field "name"');
  });

  test('choicesOf is null for a union that is not only literals', () => {
    expect(choicesOf({ anyOf: [{ const: 'a' }, { type: 'string' }] })).toBeNull();
    expect(choicesOf({ type: 'string' })).toBeNull();
    expect(choicesOf({ anyOf: [{ const: 1 }, { type: 'null' }] })).toEqual(['1', 'null']);
  });
});
