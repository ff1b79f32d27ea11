/**
 * ASK AI's loop: the conversation, a system prompt and the workspace's MCP tools (the base tools, then the remote
 * servers' prefixed `<server>__<tool>` for a caller the service lets use them) go to the model as functions; each tool
 * call it answers runs through the MCP registry on the member's own REST client (so the member's role, scopes and
 * workspace apply: a viewer's `run_test` gets REST's refusal), counted against the AI tool-call budget first exactly
 * as over MCP; its result (JSON, bounded) goes back, and the loop goes on, at most `maxRounds` times.
 *
 * Secret hygiene: everything sent to the model (the member's messages, earlier answers, tool arguments and results)
 * passes the workspace's env-var masker first (the same masking as run logs), so a value that shows up anywhere
 * (a test's script, an error message, a remote tool's answer) reaches the model as `***`. The env-var tools and routes
 * answer no values to begin with.
 */
import { callRemoteTool, remoteListing, remoteTools } from '../remote-tools.ts';
import { mcpTools, toolsByName } from '../tool-list.ts';
import { runTool, type ToolContext, toolError, toolListing, type ToolResult } from '../tool-registry.ts';
import { askModel, type ChatMessage, type FunctionTool, type ModelClientDeps, ModelError, type ToolCall } from './model-client.ts';
import type { ModelTarget } from './settings.ts';

export type AssistantEvent =
  | { event: 'tool_call'; data: { id: string; name: string; arguments: unknown } }
  | { event: 'tool_result'; data: { id: string; name: string; ok: boolean; summary: string } }
  | { event: 'delta'; data: { content: string } }
  | { event: 'done'; data: { rounds: number; tool_calls: number } }
  | { event: 'error'; data: { error: string; message: string } };

export interface ConversationMessage {
  role: 'user' | 'assistant';
  content: string;
}

export interface AssistantRun {
  target: ModelTarget;
  messages: readonly ConversationMessage[];
  /** Who asks, for the system prompt. */
  caller: { workspace: string; role: string; permissions: readonly string[] };
  context: ToolContext;
  mask: (text: string) => string;
  model: ModelClientDeps;
  maxRounds: number;
  emit(event: AssistantEvent): void;
}

/** What a tool result may weigh in what the model receives, and in the summary shown to the member. */
export const maxResultChars = 16_000;
export const maxSummaryChars = 400;

const cut = (text: string, max: number) => (text.length > max ? `${text.slice(0, max)}... (${text.length - max} more characters cut)` : text);

/** OpenAI's function names: letters, digits, `_` and `-`, at most 64. Our tools and prefixed remote tools fit. */
const functionName = /^[A-Za-z0-9_-]{1,64}$/;

export async function toolFunctions(context: ToolContext): Promise<FunctionTool[]> {
  const remote = await remoteTools(context).catch((error: unknown) => {
    context.logger.warn('remote MCP tools not offered to ASK AI', { error: String(error) });
    return [];
  });
  const listings = [...mcpTools.map(toolListing), ...remote.map(remoteListing)];
  return listings
    .filter((listing) => functionName.test(listing.name))
    .map((listing) => ({
      type: 'function' as const,
      function: { name: listing.name, description: cut(listing.description, 1000), parameters: listing.inputSchema as Record<string, unknown> },
    }));
}

function systemPrompt(caller: AssistantRun['caller']): string {
  return [
    'You are ASK AI, the assistant of Loadplane, a load-testing control plane: tests (a script and the tool that runs it) run on machines of',
    'the workspace, and each run reports p50/p95/p99 latency in milliseconds, error_rate as a fraction 0..1, requests_per_sec and total_requests.',
    `You act for a member of the workspace "${caller.workspace}" with the role ${caller.role} (permissions: ${caller.permissions.join(', ') || 'none'}),`,
    'through the tools given, and with exactly their rights: a tool the role does not allow answers an error; say so plainly, never pretend.',
    'Every tool call counts against the workspace\'s monthly AI tool-call budget: call tools only when needed. Lists are paged (limit, cursor).',
    'Answer briefly, in the language of the question, with figures and their units. Secret values show as *** and stay unknown to you.',
  ].join(' ');
}

/** A tool's answer as the model reads it: its text content (JSON), bounded. */
function resultText(result: ToolResult): string {
  const text = (result.content ?? [])
    .map((part) => (part && typeof part === 'object' && (part as { type?: string }).type === 'text' ? String((part as { text?: unknown }).text ?? '') : JSON.stringify(part)))
    .join('\n');
  return text || JSON.stringify(result.structuredContent ?? {});
}

/** The REST error code a tool error carries (`{error, message, status}`), if any. */
function errorCodeOf(text: string): string | null {
  try {
    const parsed = JSON.parse(text) as { error?: unknown };
    return typeof parsed.error === 'string' ? parsed.error : null;
  } catch {
    return null;
  }
}

async function runCall(call: ToolCall, context: ToolContext): Promise<{ args: unknown; result: ToolResult }> {
  let args: unknown;
  try {
    args = call.function.arguments.trim() ? JSON.parse(call.function.arguments) : {};
  } catch {
    return { args: call.function.arguments, result: toolError(400, 'bad_request', `the arguments of ${call.function.name} are not JSON`) };
  }
  if (args === null || typeof args !== 'object' || Array.isArray(args)) {
    return { args, result: toolError(400, 'bad_request', `the arguments of ${call.function.name} must be a JSON object`) };
  }
  const tool = toolsByName.get(call.function.name);
  if (tool) return { args, result: await runTool(tool, args, context) };
  const remote = await callRemoteTool(call.function.name, args, context);
  return { args, result: remote ?? toolError(404, 'not_found', `no tool named ${call.function.name}`) };
}

/** Masks every string the model will read: contents and tool arguments. */
function masked(messages: ChatMessage[], mask: (text: string) => string): ChatMessage[] {
  return messages.map((message) => {
    if (message.role === 'assistant') {
      return {
        ...message,
        content: message.content === null ? null : mask(message.content),
        ...(message.tool_calls
          ? { tool_calls: message.tool_calls.map((call) => ({ ...call, function: { name: call.function.name, arguments: mask(call.function.arguments) } })) }
          : {}),
      };
    }
    return { ...message, content: mask(message.content) };
  });
}

export async function runAssistant(run: AssistantRun): Promise<void> {
  const { context, emit } = run;
  const tools = await toolFunctions(context);
  const conversation: ChatMessage[] = [{ role: 'system', content: systemPrompt(run.caller) }, ...run.messages.map((message) => ({ ...message }))];
  let calls = 0;
  for (let round = 1; round <= run.maxRounds; round++) {
    if (context.signal.aborted) return;
    let answer;
    try {
      answer = await askModel(
        run.model,
        { url: run.target.url, apiKey: run.target.apiKey, model: run.target.model, messages: masked(conversation, run.mask), tools },
        (content) => emit({ event: 'delta', data: { content } }),
        context.signal,
      );
    } catch (error) {
      if (!(error instanceof ModelError)) throw error;
      emit({ event: 'error', data: { error: 'model_failed', message: error.message } });
      return;
    }
    if (answer.toolCalls.length === 0) {
      emit({ event: 'done', data: { rounds: round, tool_calls: calls } });
      return;
    }
    conversation.push({ role: 'assistant', content: answer.content || null, tool_calls: answer.toolCalls });
    for (const call of answer.toolCalls) {
      if (context.signal.aborted) return;
      const parsedArgs = (() => {
        try {
          return JSON.parse(call.function.arguments || '{}') as unknown;
        } catch {
          return call.function.arguments;
        }
      })();
      emit({ event: 'tool_call', data: { id: call.id, name: call.function.name, arguments: parsedArgs } });
      const { result } = await runCall(call, context);
      calls++;
      const text = run.mask(resultText(result));
      const ok = !result.isError;
      emit({ event: 'tool_result', data: { id: call.id, name: call.function.name, ok, summary: cut(text, maxSummaryChars) } });
      if (!ok && errorCodeOf(text) === 'ai_budget_exhausted') {
        emit({
          event: 'error',
          data: { error: 'ai_budget_exhausted', message: 'The workspace has used its monthly AI tool-call budget: ASK AI cannot call tools until next month (or a larger plan).' },
        });
        return;
      }
      conversation.push({ role: 'tool', tool_call_id: call.id, content: cut(text, maxResultChars) });
    }
  }
  emit({ event: 'error', data: { error: 'too_many_rounds', message: `stopped after ${run.maxRounds} rounds of tool calls without a final answer; ask a narrower question` } });
}
