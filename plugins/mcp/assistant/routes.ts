/**
 * ASK AI's routes, in the REST API's namespace and its manner (bearer JWT or API token, X-Workspace-Id, `{error,
 * message}` errors), each checked by the REST API itself with the caller's own credentials:
 * - GET /api/v1/assistant: whether this workspace has a model (any member; the panel says how to set one when not);
 * - GET and PUT /api/v1/assistant/settings: the workspace's own model (admins: whoever may manage remote MCP servers,
 *   whose headers are credentials too); the key is write-only, sealed at rest;
 * - POST /api/v1/assistant/chat: the conversation in, server-sent events out (tool_call, tool_result, delta, done, error).
 */
import { Type } from '@sinclair/typebox';
import { TypeCompiler } from '@sinclair/typebox/compiler';
import { Elysia } from 'elysia';
import type { Logger } from 'loadplane/plugin';
import { createRestClient, type Fetch, RestError, type RestClient, serviceAddress } from '../rest-client.ts';
import type { ScriptValidator } from '../script-validator.ts';
import { type AssistantEvent, runAssistant } from './chat-loop.ts';
import type { ModelClientDeps, OutboundUrlGuard } from './model-client.ts';
import { type AssistantSettings, completionsUrl } from './settings.ts';

export const assistantPath = '/api/v1/assistant';

export interface AssistantRouteOptions {
  publicUrl: string;
  maxBodyBytes: number;
  fetch: Fetch;
  settings: AssistantSettings;
  guard: OutboundUrlGuard;
  model: Omit<ModelClientDeps, 'guard'>;
  /** The workspace's env-var masker (null: nothing to mask). */
  maskerFor(workspaceId: string): Promise<((text: string) => string) | null>;
  validateScript: ScriptValidator;
  logger: Logger;
  maxRounds?: number;
}

const Message = Type.Object(
  { role: Type.Union([Type.Literal('user'), Type.Literal('assistant')]), content: Type.String({ minLength: 1, maxLength: 20_000 }) },
  { additionalProperties: false },
);
export const ChatBody = Type.Object({ messages: Type.Array(Message, { minItems: 1, maxItems: 50 }) }, { additionalProperties: false });
export const SettingsBody = Type.Object(
  {
    api_url: Type.Optional(Type.Union([Type.String({ pattern: '^https?://', maxLength: 2000 }), Type.Null()])),
    model: Type.Optional(Type.Union([Type.String({ minLength: 1, maxLength: 200 }), Type.Null()])),
    api_key: Type.Optional(Type.Union([Type.String({ maxLength: 4000 }), Type.Null()])),
    enabled: Type.Optional(Type.Boolean()),
  },
  { additionalProperties: false },
);
const checkChat = TypeCompiler.Compile(ChatBody);
const checkSettings = TypeCompiler.Compile(SettingsBody);

const StatusView = {
  type: 'object',
  required: ['configured', 'enabled', 'source', 'model'],
  properties: {
    configured: { type: 'boolean' },
    enabled: { type: 'boolean' },
    source: { anyOf: [{ type: 'string', enum: ['workspace', 'service'] }, { type: 'null' }] },
    model: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    message: { type: 'string', description: 'when not configured: how to set a model' },
  },
};
const SettingsView = {
  type: 'object',
  required: ['api_url', 'model', 'api_key_set', 'enabled', 'updated_at', 'service'],
  properties: {
    api_url: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    model: { anyOf: [{ type: 'string' }, { type: 'null' }] },
    api_key_set: { type: 'boolean', description: 'the key itself is never answered' },
    enabled: { type: 'boolean' },
    updated_at: { anyOf: [{ type: 'string', format: 'date-time' }, { type: 'null' }] },
    service: {
      type: 'object',
      required: ['configured', 'model'],
      properties: { configured: { type: 'boolean' }, model: { anyOf: [{ type: 'string' }, { type: 'null' }] } },
    },
  },
};
// eslint-disable-next-line @typescript-eslint/no-explicit-any -- plain JSON Schema for the OpenAPI document
const json = (schema: any, description = 'OK') => ({ description, content: { 'application/json': { schema } } });
const ref = (name: string) => ({ $ref: `#/components/responses/${name}` });
const jsonBody = (schema: unknown) => ({ required: true, content: { 'application/json': { schema: JSON.parse(JSON.stringify(schema)) } } });

function jsonAnswer(status: number, body: unknown): Response {
  return new Response(JSON.stringify(body), { status, headers: { 'content-type': 'application/json' } });
}
const jsonError = (status: number, error: string, message: string) =>
  jsonAnswer(status, { error, message });

function bearerOf(request: Request): string | null {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(request.headers.get('authorization') ?? '');
  return match ? match[1]! : null;
}

interface WorkspaceAnswer {
  id: string;
  name: string;
  role: string;
  permissions: string[];
}

/** The body, read within the limit (a chunked body declares no length), as JSON. */
async function readJson(request: Request, maxBytes: number): Promise<{ ok: true; value: unknown } | { ok: false; response: Response }> {
  const type = request.headers.get('content-type')?.split(';')[0]?.trim().toLowerCase();
  if (type !== 'application/json') return { ok: false, response: jsonError(415, 'unsupported_media_type', 'send the body as Content-Type: application/json') };
  const reader = request.body?.getReader();
  const chunks: Uint8Array[] = [];
  let size = 0;
  while (reader) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    if (size > maxBytes) {
      await reader.cancel().catch(() => {});
      return { ok: false, response: jsonError(413, 'payload_too_large', `the request body is over ${maxBytes} bytes`) };
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const chunk of chunks) {
    bytes.set(chunk, at);
    at += chunk.length;
  }
  try {
    return { ok: true, value: JSON.parse(new TextDecoder().decode(bytes)) };
  } catch {
    return { ok: false, response: jsonError(400, 'bad_request', 'the body is not valid JSON') };
  }
}

function firstError(check: ReturnType<typeof TypeCompiler.Compile>, value: unknown): string {
  const error = [...check.Errors(value)][0];
  return error ? `${error.path || 'body'}: ${error.message}` : 'invalid body';
}

export function assistantRoutes(options: AssistantRouteOptions) {
  const address = serviceAddress(options.publicUrl);
  const maxRounds = options.maxRounds ?? 8;

  /** The caller as REST sees them: a REST client with their credentials and their workspace, or REST's refusal. */
  async function callerOf(request: Request, signal?: AbortSignal): Promise<{ ok: true; rest: RestClient; workspace: WorkspaceAnswer } | { ok: false; response: Response }> {
    const token = bearerOf(request);
    if (!token) return { ok: false, response: jsonError(401, 'unauthorized', 'send Authorization: Bearer <token>') };
    const workspaceId = request.headers.get('x-workspace-id');
    const rest = createRestClient({ address, token, fetch: options.fetch, headers: workspaceId ? { 'x-workspace-id': workspaceId } : {}, ...(signal ? { signal } : {}) });
    try {
      return { ok: true, rest, workspace: await rest.get<WorkspaceAnswer>('/workspace') };
    } catch (error) {
      if (error instanceof RestError) return { ok: false, response: jsonError(error.status || 502, error.code, error.message) };
      throw error;
    }
  }

  /** Admins only: REST's own policy of remote MCP servers (manage_mcp_servers, no scoped token) decides. */
  async function adminOf(request: Request) {
    const caller = await callerOf(request);
    if (!caller.ok) return caller;
    try {
      await caller.rest.page('/mcp-servers', { limit: 1 });
    } catch (error) {
      if (error instanceof RestError) return { ok: false as const, response: jsonError(error.status || 502, error.code, error.message) };
      throw error;
    }
    return caller;
  }

  const docs = { tags: ['Assistant'] };
  return new Elysia({ name: 'assistant-routes', normalize: false })
    .get(
      assistantPath,
      async ({ request }) => {
        const caller = await callerOf(request);
        if (!caller.ok) return caller.response;
        const target = await options.settings.targetOf(caller.workspace.id);
        if (target.ok) return jsonAnswer(200, { configured: true, enabled: true, source: target.target.source, model: target.target.model });
        const message =
          target.reason === 'disabled'
            ? "An admin of this workspace turned ASK AI off (the panel's Model settings, or PUT /api/v1/assistant/settings {enabled: true})."
            : target.reason === 'key_unreadable'
              ? "This workspace's model key cannot be decrypted (SECRET_KEY changed since it was set?): an admin sets it again."
              : options.settings.howToConfigure;
        return jsonAnswer(200, { configured: false, enabled: target.reason !== 'disabled', source: null, model: null, message });
      },
      {
        detail: {
          ...docs,
          summary: "ASK AI's state for this workspace: whether a model is set (and whose), else how to set one",
          responses: { 200: json(StatusView), 401: ref('Unauthorized'), 403: ref('Forbidden') },
        },
      },
    )
    .get(
      `${assistantPath}/settings`,
      async ({ request }) => {
        const caller = await adminOf(request);
        if (!caller.ok) return caller.response;
        return jsonAnswer(200, await options.settings.view(caller.workspace.id));
      },
      {
        detail: {
          ...docs,
          summary: "The workspace's own ASK AI model (admins): URL, model, whether a key is set (the key is never answered)",
          responses: { 200: json(SettingsView), 401: ref('Unauthorized'), 403: ref('Forbidden') },
        },
      },
    )
    .put(
      `${assistantPath}/settings`,
      async ({ request }) => {
        const caller = await adminOf(request);
        if (!caller.ok) return caller.response;
        const body = await readJson(request, options.maxBodyBytes);
        if (!body.ok) return body.response;
        if (!checkSettings.Check(body.value)) return jsonError(400, 'bad_request', firstError(checkSettings, body.value));
        const change = body.value;
        if (change.api_url) {
          let url: string;
          try {
            url = completionsUrl(change.api_url);
          } catch {
            return jsonError(400, 'bad_request', 'api_url: not a URL');
          }
          const verdict = await options.guard.check(url);
          if (!verdict.ok) return jsonError(400, 'bad_request', `api_url: ${verdict.reason.replace('webhooks may target it', 'the service may reach it')}`);
          const current = await options.settings.view(caller.workspace.id);
          if (!(change.model ?? current.model)) return jsonError(400, 'bad_request', 'model: a workspace that sets api_url sets its model too');
        }
        const me = await caller.rest.get<{ sub?: string }>('/auth/me').catch(() => ({ sub: undefined }));
        return jsonAnswer(200, await options.settings.update(caller.workspace.id, me.sub ?? null, change));
      },
      {
        parse: 'none',
        detail: {
          ...docs,
          summary: "Set the workspace's own ASK AI model (admins): api_url and model, api_key (write-only: absent keeps it, null removes it), enabled",
          description:
            'A workspace without its own URL uses the service-wide model (AI_API_URL, AI_API_KEY, AI_MODEL), whose key is never sent to a URL a ' +
            'workspace sets. The URL passes the outbound guard (WEBHOOK_ALLOW_HOSTS for a private address).',
          requestBody: jsonBody(SettingsBody),
          responses: { 200: json(SettingsView), 400: ref('BadRequest'), 401: ref('Unauthorized'), 403: ref('Forbidden') },
        },
      },
    )
    .post(
      `${assistantPath}/chat`,
      async ({ request }) => {
        const caller = await callerOf(request, request.signal);
        if (!caller.ok) return caller.response;
        const body = await readJson(request, options.maxBodyBytes);
        if (!body.ok) return body.response;
        if (!checkChat.Check(body.value)) return jsonError(400, 'bad_request', firstError(checkChat, body.value));
        const messages = body.value.messages;
        if (messages.at(-1)!.role !== 'user') return jsonError(400, 'bad_request', 'messages: the last message is the question (role user)');
        const target = await options.settings.targetOf(caller.workspace.id);
        if (!target.ok) {
          const message = target.reason === 'disabled' ? 'An admin of this workspace turned ASK AI off.' : options.settings.howToConfigure;
          return jsonError(409, 'assistant_not_configured', message);
        }
        const masker = await options.maskerFor(caller.workspace.id);
        const mask = masker ?? ((text: string) => text);
        const { rest, workspace } = caller;
        const encoder = new TextEncoder();
        let closed = false;
        const stream = new ReadableStream<Uint8Array>({
          start(controller) {
            const write = (text: string) => {
              if (closed) return;
              try {
                controller.enqueue(encoder.encode(text));
              } catch {
                closed = true;
              }
            };
            const emit = (event: AssistantEvent) => write(`event: ${event.event}\ndata: ${JSON.stringify(event.data)}\n\n`);
            // Comments hold the stream open while the model thinks (proxies and the idle timeout would cut it).
            const keepAlive = setInterval(() => write(': keep-alive\n\n'), 10_000);
            write(': ASK AI\n\n');
            void runAssistant({
              target: target.target,
              messages,
              caller: { workspace: workspace.name, role: workspace.role, permissions: workspace.permissions },
              context: { rest, signal: request.signal, validateScript: options.validateScript, logger: options.logger },
              mask,
              model: { ...options.model, guard: options.guard },
              maxRounds,
              emit,
            })
              .catch((error: unknown) => {
                options.logger.error('ASK AI failed', { error: String(error), stack: (error as Error)?.stack });
                emit({ event: 'error', data: { error: 'internal_error', message: 'ASK AI failed; the service log says why' } });
              })
              .finally(() => {
                clearInterval(keepAlive);
                if (closed) return;
                closed = true;
                try {
                  controller.close();
                } catch {
                  // The client went away.
                }
              });
          },
          cancel() {
            closed = true;
          },
        });
        return new Response(stream, { headers: { 'content-type': 'text/event-stream', 'cache-control': 'no-store', 'x-accel-buffering': 'no' } });
      },
      {
        parse: 'none',
        detail: {
          ...docs,
          summary: 'Ask the assistant: the conversation in, server-sent events out (tool_call, tool_result, delta, done, error)',
          description:
            "The model (the workspace's or the service's) answers with the workspace's MCP tools, run with the caller's own rights; every tool " +
            'call counts against the monthly AI tool-call budget. Events: `tool_call` {id, name, arguments}, `tool_result` {id, name, ok, summary}, ' +
            '`delta` {content}, then `done` {rounds, tool_calls} or `error` {error, message}. 409 `assistant_not_configured` says how to set a model.',
          requestBody: jsonBody(ChatBody),
          responses: {
            200: { description: 'text/event-stream', content: { 'text/event-stream': { schema: { type: 'string' } } } },
            400: ref('BadRequest'),
            401: ref('Unauthorized'),
            409: ref('Conflict'),
          },
        },
      },
    );
}
