/**
 * One chat completions request to an OpenAI-compatible endpoint, through the outbound guard (WEBHOOK_ALLOW_HOSTS), the
 * connection going to the address the guard checked (DNS rebinding cannot swap it), as for every user-supplied URL.
 * It asks for `stream: true` and reads the SSE answer (`data: {choices: [{delta}]}` ... `data: [DONE]`) as it arrives,
 * passing each piece of text on at once; an endpoint that does not stream answers plain JSON, read whole. A host
 * without the streaming pinned fetch (pinnedFetchPort) gets the webhook transport: the same guard and pinning, the
 * answer read whole and then passed on in order.
 */
import { type AddressCheck, type createOutboundUrlGuard, formatIp, type PinnedFetchFactory, type WebhookTransport } from 'loadplane/plugin';

export type OutboundUrlGuard = ReturnType<typeof createOutboundUrlGuard>;

export interface ToolCall {
  id: string;
  type: 'function';
  function: { name: string; arguments: string };
}

export type ChatMessage =
  | { role: 'system' | 'user'; content: string }
  | { role: 'assistant'; content: string | null; tool_calls?: ToolCall[] }
  | { role: 'tool'; tool_call_id: string; content: string };

export interface FunctionTool {
  type: 'function';
  function: { name: string; description: string; parameters: Record<string, unknown> };
}

export interface ModelAnswer {
  content: string;
  toolCalls: ToolCall[];
}

export class ModelError extends Error {}

export interface ModelRequest {
  url: string;
  apiKey: string | null;
  model: string;
  messages: ChatMessage[];
  tools: FunctionTool[];
}

export interface ModelClientDeps {
  guard: OutboundUrlGuard;
  /** The streaming path; absent: the webhook transport's whole-answer path. */
  pinnedFetch?: PinnedFetchFactory;
  transport: WebhookTransport;
  timeoutMillis: number;
  maxResponseBytes: number;
}

const quoted = (text: string) => (text.length > 300 ? `${text.slice(0, 300)}...` : text);

interface Delta {
  content?: string | null;
  tool_calls?: { index?: number; id?: string; type?: string; function?: { name?: string; arguments?: string } }[];
}

/** Reads an SSE answer line by line, as it arrives: content passed on at once, tool calls joined by their index. */
export function streamedAnswerReader(onDelta: (content: string) => void) {
  let content = '';
  const calls: ToolCall[] = [];
  return {
    line(line: string): void {
      if (!line.startsWith('data:')) return;
      const data = line.slice(5).trim();
      if (!data || data === '[DONE]') return;
      let chunk: { choices?: { delta?: Delta; message?: Delta }[]; error?: { message?: string } };
      try {
        chunk = JSON.parse(data);
      } catch {
        return;
      }
      if (chunk.error) throw new ModelError(`the model answered an error: ${quoted(chunk.error.message ?? JSON.stringify(chunk.error))}`);
      const delta = chunk.choices?.[0]?.delta ?? chunk.choices?.[0]?.message;
      if (!delta) return;
      if (typeof delta.content === 'string' && delta.content) {
        content += delta.content;
        onDelta(delta.content);
      }
      for (const [position, piece] of (delta.tool_calls ?? []).entries()) {
        const index = piece.index ?? position;
        const call = (calls[index] ??= { id: '', type: 'function', function: { name: '', arguments: '' } });
        if (piece.id) call.id = piece.id;
        if (piece.function?.name) call.function.name += piece.function.name;
        if (piece.function?.arguments) call.function.arguments += piece.function.arguments;
      }
    },
    answer(): ModelAnswer {
      return { content, toolCalls: calls.filter(Boolean).map((call, i) => ({ ...call, id: call.id || `call_${i}` })) };
    },
  };
}

/** A whole SSE answer read at once. */
export function readStreamedAnswer(text: string, onDelta: (content: string) => void): ModelAnswer {
  const reader = streamedAnswerReader(onDelta);
  for (const line of text.split(/\r?\n/)) reader.line(line);
  return reader.answer();
}

/** A non-streamed answer: `{choices: [{message: {content, tool_calls}}]}`. */
export function readJsonAnswer(text: string, onDelta: (content: string) => void): ModelAnswer {
  let body: { choices?: { message?: { content?: string | null; tool_calls?: ToolCall[] } }[]; error?: { message?: string } };
  try {
    body = JSON.parse(text);
  } catch {
    throw new ModelError(`the model's answer is neither JSON nor an event stream: ${quoted(text)}`);
  }
  if (body.error) throw new ModelError(`the model answered an error: ${quoted(body.error.message ?? JSON.stringify(body.error))}`);
  const message = body.choices?.[0]?.message;
  if (!message) throw new ModelError(`the model's answer has no choices[0].message: ${quoted(text)}`);
  const content = typeof message.content === 'string' ? message.content : '';
  if (content) onDelta(content);
  const toolCalls = (message.tool_calls ?? []).map((call, i) => ({
    id: call.id || `call_${i}`,
    type: 'function' as const,
    function: { name: String(call.function?.name ?? ''), arguments: typeof call.function?.arguments === 'string' ? call.function.arguments : JSON.stringify(call.function?.arguments ?? {}) },
  }));
  return { content, toolCalls };
}

/** The answer's text, JSON or SSE, read whole. */
function readWhole(text: string, onDelta: (content: string) => void): ModelAnswer {
  const trimmed = text.trim();
  return trimmed.startsWith('{') ? readJsonAnswer(trimmed, onDelta) : readStreamedAnswer(trimmed, onDelta);
}

function requestOf(request: ModelRequest) {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'text/event-stream, application/json' };
  if (request.apiKey) headers.authorization = `Bearer ${request.apiKey}`;
  const body = JSON.stringify({
    model: request.model,
    messages: request.messages,
    ...(request.tools.length ? { tools: request.tools, tool_choice: 'auto' } : {}),
    stream: true,
  });
  return { headers, body };
}

const refusal = (reason: string) => new ModelError(`the model URL is refused: ${reason.replace('webhooks may target it', 'the service may reach it')}`);

async function askStreaming(
  deps: ModelClientDeps & { pinnedFetch: PinnedFetchFactory },
  request: ModelRequest,
  onDelta: (content: string) => void,
  signal: AbortSignal,
): Promise<ModelAnswer> {
  let refused: string | null = null;
  const check: AddressCheck = async (url) => {
    const verdict = await deps.guard.check(url.href);
    if (!verdict.ok) {
      refused = verdict.reason;
      return { ok: false, reason: verdict.reason };
    }
    return { ok: true, address: formatIp(verdict.addresses[0]!) };
  };
  const deadline = AbortSignal.timeout(deps.timeoutMillis);
  const fetch = deps.pinnedFetch({ check, maxResponseBytes: deps.maxResponseBytes, signal: AbortSignal.any([signal, deadline]) });
  const { headers, body } = requestOf(request);
  const failed = (error: unknown): ModelError => {
    if (error instanceof ModelError) return error;
    if (refused) return refusal(refused);
    if (deadline.aborted) return new ModelError(`the model did not answer within ${Math.round(deps.timeoutMillis / 1000)} s`);
    return new ModelError(`the model endpoint cannot be reached or broke off: ${error instanceof Error ? error.message : String(error)}`);
  };
  try {
    const response = await fetch(request.url, { method: 'POST', headers, body, redirect: 'manual' });
    if (response.status < 200 || response.status > 299) {
      const text = await response.text().catch(() => '');
      throw new ModelError(`the model endpoint answered HTTP ${response.status}: ${quoted(text)}`);
    }
    const type = response.headers.get('content-type') ?? '';
    if (!type.includes('text/event-stream') || !response.body) return readWhole(await response.text(), onDelta);
    const reader = streamedAnswerReader(onDelta);
    const decoder = new TextDecoder();
    const stream = response.body.getReader();
    let buffer = '';
    for (;;) {
      const { done, value } = await stream.read();
      buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
      const lines = buffer.split(/\r?\n/);
      buffer = done ? '' : (lines.pop() ?? '');
      for (const line of lines) reader.line(line);
      if (done) return reader.answer();
    }
  } catch (error) {
    throw failed(error);
  }
}

async function askWhole(deps: ModelClientDeps, request: ModelRequest, onDelta: (content: string) => void): Promise<ModelAnswer> {
  const check = await deps.guard.check(request.url);
  if (!check.ok) throw refusal(check.reason);
  const { headers, body } = requestOf(request);
  let last = 'no address';
  for (const address of check.addresses) {
    const result = await deps.transport({
      url: new URL(request.url),
      address: formatIp(address),
      headers,
      body,
      timeoutMillis: deps.timeoutMillis,
      maxResponseBytes: deps.maxResponseBytes,
    });
    if (result.kind === 'timeout') throw new ModelError(`the model did not answer within ${Math.round(deps.timeoutMillis / 1000)} s`);
    if (result.kind === 'error') {
      last = result.message;
      continue;
    }
    if (result.status < 200 || result.status > 299) throw new ModelError(`the model endpoint answered HTTP ${result.status}: ${quoted(result.excerpt)}`);
    if (new TextEncoder().encode(result.excerpt).length >= deps.maxResponseBytes) throw new ModelError(`the model's answer is over ${deps.maxResponseBytes} bytes`);
    return readWhole(result.excerpt, onDelta);
  }
  throw new ModelError(`the model endpoint cannot be reached: ${last}`);
}

/** One round with the model: its text passed to `onDelta` as it comes, its answer (text and tool calls) at the end. */
export function askModel(deps: ModelClientDeps, request: ModelRequest, onDelta: (content: string) => void, signal: AbortSignal): Promise<ModelAnswer> {
  const { pinnedFetch } = deps;
  return pinnedFetch ? askStreaming({ ...deps, pinnedFetch }, request, onDelta, signal) : askWhole(deps, request, onDelta);
}
