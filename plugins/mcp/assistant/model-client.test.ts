/** The model client's two reading paths: the whole answer through the webhook transport (SSE or JSON), and its refusals. */
import { describe, expect, test } from 'bun:test';
import type { WebhookTransport } from 'loadplane/plugin';
import { askModel, type ModelClientDeps, ModelError, readStreamedAnswer } from './model-client.ts';

const loopback = { ok: true as const, url: new URL('http://model.test/v1/chat/completions'), hostname: 'model.test', addresses: [{ bytes: new Uint8Array(16), v4: true }] };
const request = { url: 'http://model.test/v1/chat/completions', apiKey: 'k', model: 'm', messages: [{ role: 'user' as const, content: 'hi' }], tools: [] };

function deps(transport: WebhookTransport, ok = true): ModelClientDeps {
  return {
    guard: { check: async () => (ok ? (loopback as never) : { ok: false, reason: '10.0.0.1 is a private address; webhooks may target it only if WEBHOOK_ALLOW_HOSTS names it' }) },
    transport,
    timeoutMillis: 1000,
    maxResponseBytes: 10_000,
  };
}

describe('the model client without the pinned fetch', () => {
  test('reads an SSE answer whole and passes its pieces on in order, tool calls joined', async () => {
    const sse = [
      { choices: [{ delta: { content: 'a' } }] },
      { choices: [{ delta: { tool_calls: [{ index: 0, id: 'c', function: { name: 'list_', arguments: '{"li' } }] } }] },
      { choices: [{ delta: { content: 'b', tool_calls: [{ index: 0, function: { name: 'runs', arguments: 'mit":1}' } }] } }] },
    ]
      .map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`)
      .join('');
    const pieces: string[] = [];
    const answer = await askModel(deps(async () => ({ kind: 'answered', status: 200, excerpt: `${sse}data: [DONE]\n\n` })), request, (piece) => pieces.push(piece), new AbortController().signal);
    expect(pieces).toEqual(['a', 'b']);
    expect(answer).toEqual({ content: 'ab', toolCalls: [{ id: 'c', type: 'function', function: { name: 'list_runs', arguments: '{"limit":1}' } }] });
  });

  test('reads a plain JSON answer', async () => {
    const excerpt = JSON.stringify({ choices: [{ message: { content: 'hello' } }] });
    const answer = await askModel(deps(async () => ({ kind: 'answered', status: 200, excerpt })), request, () => {}, new AbortController().signal);
    expect(answer).toEqual({ content: 'hello', toolCalls: [] });
  });

  test("says why: the guard's refusal, the endpoint's error status, an error chunk", async () => {
    const signal = new AbortController().signal;
    const refused = askModel(deps(async () => ({ kind: 'timeout' }), false), request, () => {}, signal);
    await expect(refused).rejects.toThrow('the model URL is refused: 10.0.0.1 is a private address; the service may reach it');
    const failing = askModel(deps(async () => ({ kind: 'answered', status: 401, excerpt: '{"error":{"message":"bad key"}}' })), request, () => {}, signal);
    await expect(failing).rejects.toThrow('HTTP 401');
    expect(() => readStreamedAnswer('data: {"error":{"message":"quota"}}\n\n', () => {})).toThrow(ModelError);
  });
});
