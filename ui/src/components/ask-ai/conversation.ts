/**
 * ASK AI's conversation state, pure: the turns, each answer built from the chat stream's events (tool_call,
 * tool_result, delta, done, error), and the server-sent event reader for the stream's body.
 *
 * Exports: Turn, ToolCallView, AssistantEvent, applyEvent(turn, event), historyOf(turns), readEvents(body, onEvent).
 */

export interface ToolCallView {
  id: string;
  name: string;
  arguments: unknown;
  /** Unknown until its result arrives. */
  ok?: boolean;
  summary?: string;
}

export interface UserTurn {
  role: 'user';
  content: string;
}

export interface AssistantTurn {
  role: 'assistant';
  content: string;
  toolCalls: ToolCallView[];
  state: 'streaming' | 'done' | 'failed' | 'stopped';
  error?: string;
}

export type Turn = UserTurn | AssistantTurn;

export interface AssistantEvent {
  event: string;
  data: Record<string, unknown>;
}

const text = (value: unknown) => (typeof value === 'string' ? value : '');

/** The answer after one event of its stream. */
export function applyEvent(turn: AssistantTurn, event: AssistantEvent): AssistantTurn {
  switch (event.event) {
    case 'delta':
      return { ...turn, content: turn.content + text(event.data.content) };
    case 'tool_call':
      return {
        ...turn,
        toolCalls: [...turn.toolCalls, { id: text(event.data.id) || String(turn.toolCalls.length), name: text(event.data.name), arguments: event.data.arguments }],
      };
    case 'tool_result': {
      const id = text(event.data.id);
      let matched = false;
      const toolCalls = turn.toolCalls.map((call) => {
        if (matched || call.ok !== undefined || (id && call.id !== id)) return call;
        matched = true;
        return { ...call, ok: event.data.ok === true, summary: text(event.data.summary) };
      });
      return { ...turn, toolCalls };
    }
    case 'done':
      return { ...turn, state: 'done' };
    case 'error':
      return { ...turn, state: 'failed', error: text(event.data.message) || 'ASK AI failed.' };
    default:
      return turn;
  }
}

/** What the service receives: the questions and the answers' text (tool calls are re-done by the model when needed). */
export function historyOf(turns: readonly Turn[]): { role: 'user' | 'assistant'; content: string }[] {
  return turns
    .filter((turn) => turn.content.trim().length > 0)
    .map((turn) => ({ role: turn.role, content: turn.content.slice(0, 20_000) }))
    .slice(-40);
}

/** Parses one SSE frame (`event:` and `data:` lines); comments and frames without data give null. */
export function parseFrame(frame: string): AssistantEvent | null {
  let event = 'message';
  const data: string[] = [];
  for (const line of frame.split(/\r?\n/)) {
    if (line.startsWith(':')) continue;
    if (line.startsWith('event:')) event = line.slice(6).trim();
    else if (line.startsWith('data:')) data.push(line.slice(5).replace(/^ /, ''));
  }
  if (data.length === 0) return null;
  try {
    const parsed = JSON.parse(data.join('\n')) as unknown;
    return { event, data: parsed && typeof parsed === 'object' ? (parsed as Record<string, unknown>) : { value: parsed } };
  } catch {
    return null;
  }
}

/** Reads a text/event-stream body to its end, calling `onEvent` for each event as it arrives. */
export async function readEvents(body: ReadableStream<Uint8Array>, onEvent: (event: AssistantEvent) => void): Promise<void> {
  const reader = body.getReader();
  const decoder = new TextDecoder();
  let buffer = '';
  for (;;) {
    const { done, value } = await reader.read();
    buffer += done ? decoder.decode() : decoder.decode(value, { stream: true });
    const frames = buffer.split(/\r?\n\r?\n/);
    buffer = done ? '' : (frames.pop() ?? '');
    for (const frame of frames) {
      const event = parseFrame(frame);
      if (event) onEvent(event);
    }
    if (done) return;
  }
}

/** A tool call's arguments in one short line. */
export function argumentsText(args: unknown): string {
  const json = typeof args === 'string' ? args : JSON.stringify(args ?? {});
  return json.length > 200 ? `${json.slice(0, 200)}…` : json;
}
