/**
 * ASK AI (plugins/mcp/assistant) against a scripted OpenAI-compatible server on loopback: the model answers with a
 * tool call (`list_runs`, or what the question names), then a final message. The stream shows the call, its result
 * and the answer; the budget moves by one per call; a viewer's ASK AI cannot start a run (REST refuses it); an env
 * var's value never reaches the model; without a model the service says how to set one; a workspace's own model
 * settings never answer the key and are not another workspace's.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { inviteAndAccept } from '../helpers/invitations.ts';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const secretValue = 'hunter2-sekrit-9f3a';
const serviceKey = 'service-model-key-4411';
const workspaceKey = 'workspace-model-key-7788';

interface Received {
  authorization: string | null;
  body: string;
  json: { model: string; stream?: boolean; tools?: { function: { name: string } }[]; messages: { role: string; content: string | null }[] };
}

/** The scripted model: a tool call chosen from the question, then, once a tool answered, a final message. */
function startScriptedModel() {
  const received: Received[] = [];
  /** `[slow]` questions: the answer's first piece, then the rest once the test opens this gate. */
  let openGate: () => void = () => {};
  let gate = Promise.resolve();
  const closeGate = () => (gate = new Promise<void>((done) => (openGate = done)));
  const sse = (chunks: unknown[]) =>
    new Response(chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n', {
      headers: { 'content-type': 'text/event-stream' },
    });
  const server = Bun.serve({
    hostname: '127.0.0.1',
    port: 0,
    async fetch(request) {
      const body = await request.text();
      const json = JSON.parse(body) as Received['json'];
      received.push({ authorization: request.headers.get('authorization'), body, json });
      const last = json.messages.at(-1)!;
      const question = [...json.messages].reverse().find((message) => message.role === 'user')?.content ?? '';
      const plain = question.includes('[plain]');
      if (last.role === 'tool' && question.includes('[slow]')) {
        const encoder = new TextEncoder();
        const frame = (content: string) => encoder.encode(`data: ${JSON.stringify({ choices: [{ delta: { content } }] })}\n\n`);
        const body = new ReadableStream<Uint8Array>({
          async start(controller) {
            controller.enqueue(frame('First piece. '));
            await gate;
            controller.enqueue(frame('Second piece.'));
            controller.enqueue(encoder.encode('data: [DONE]\n\n'));
            controller.close();
          },
        });
        return new Response(body, { headers: { 'content-type': 'text/event-stream' } });
      }
      if (last.role === 'tool') {
        const text = `Done: the tool answered ${last.content?.length ?? 0} characters.`;
        if (plain) return Response.json({ choices: [{ message: { role: 'assistant', content: text } }] });
        return sse([{ choices: [{ delta: { role: 'assistant', content: 'Done: ' } }] }, { choices: [{ delta: { content: text.slice(6) } }] }]);
      }
      const pick = /run_test (\S+)/.exec(question);
      const shown = /get_test (\S+)/.exec(question);
      const [name, args] = pick ? ['run_test', { test_id: pick[1] }] : shown ? ['get_test', { test_id: shown[1] }] : ['list_runs', { limit: 5 }];
      const argumentsText = JSON.stringify(args);
      if (plain) {
        return Response.json({
          choices: [{ message: { role: 'assistant', content: null, tool_calls: [{ id: 'call_plain', type: 'function', function: { name, arguments: argumentsText } }] } }],
        });
      }
      // The arguments come in two pieces, as streaming endpoints send them.
      return sse([
        { choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name, arguments: argumentsText.slice(0, 5) } }] } }] },
        { choices: [{ delta: { tool_calls: [{ index: 0, function: { arguments: argumentsText.slice(5) } }] } }] },
      ]);
    },
  });
  return { url: `http://127.0.0.1:${server.port}/v1`, received, closeGate, openGate: () => openGate(), stop: () => server.stop(true) };
}

interface Event {
  event: string;
  data: Record<string, unknown>;
}

async function chat(ts: TestService, token: string, question: string, headers: Record<string, string> = {}): Promise<{ status: number; events: Event[] }> {
  const response = await ts.request('/api/v1/assistant/chat', { method: 'POST', token, headers, json: { messages: [{ role: 'user', content: question }] } });
  if (response.status !== 200) return { status: response.status, events: [] };
  expect(response.headers.get('content-type')).toContain('text/event-stream');
  const text = await response.text();
  const events = text
    .split('\n\n')
    .map((frame) => ({ event: /^event: (.+)$/m.exec(frame)?.[1], data: /^data: (.+)$/m.exec(frame)?.[1] }))
    .filter((frame): frame is { event: string; data: string } => Boolean(frame.event && frame.data))
    .map((frame) => ({ event: frame.event, data: JSON.parse(frame.data) as Record<string, unknown> }));
  return { status: 200, events };
}

const answerOf = (events: Event[]) => events.filter((each) => each.event === 'delta').map((each) => each.data.content).join('');

let model: ReturnType<typeof startScriptedModel>;
let ts: TestService;
let owner: { token: string; jwt: string };
let workspaceId: string;
let viewerJwt: string;
let testId: string;

const used = async (token: string) => ((await (await ts.request('/api/v1/usage', { token })).json()) as { ai_tool_calls: { used: number } }).ai_tool_calls.used;

beforeAll(async () => {
  model = startScriptedModel();
  ts = await startTestService({
    // Loopback is refused by default: the scripted model lives there.
    env: { WEBHOOK_ALLOW_HOSTS: '127.0.0.1', AI_API_URL: model.url, AI_MODEL: 'scripted-model', AI_API_KEY: serviceKey },
  });
  owner = await ts.apiToken('ask-owner');
  workspaceId = ((await (await ts.request('/api/v1/workspace', { token: owner.jwt })).json()) as { id: string }).id;
  expect((await ts.request('/api/v1/env-vars/DB_PASSWORD', { method: 'PUT', token: owner.jwt, json: { value: secretValue } })).status).toBeLessThan(300);
  // A test whose script holds the value: get_test answers it, and the model must still never see it.
  const created = await ts.request('/api/v1/tests', {
    method: 'POST',
    token: owner.jwt,
    json: { name: 'ask-ai', tool: 'custom', script: `#!/bin/sh\ncurl -u app:${secretValue} http://db.internal/health\n` },
  });
  expect(created.status, await created.clone().text()).toBe(201);
  testId = ((await created.json()) as { id: string }).id;
  viewerJwt = await ts.createUser('ask-viewer');
  await ts.request('/api/v1/workspace', { token: viewerJwt });
  const { accepted } = await inviteAndAccept(ts, owner.jwt, 'ask-viewer', 'viewer', viewerJwt);
  if (!accepted) throw new Error('the viewer was not invited');
}, 60_000);

afterAll(async () => {
  await ts?.stop();
  model?.stop();
});

describe('ASK AI', () => {
  test('says which model the workspace uses', async () => {
    const response = await ts.request('/api/v1/assistant', { token: owner.jwt });
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ configured: true, enabled: true, source: 'service', model: 'scripted-model' });
  });

  test('a tool call to list_runs, then the answer, streamed; the budget moved by one', async () => {
    const before = await used(owner.token);
    const asked = model.received.length;
    const { status, events } = await chat(ts, owner.jwt, 'How are my runs doing?');
    expect(status).toBe(200);
    const call = events.find((each) => each.event === 'tool_call')!;
    expect(call.data).toMatchObject({ name: 'list_runs', arguments: { limit: 5 } });
    const result = events.find((each) => each.event === 'tool_result')!;
    expect(result.data).toMatchObject({ name: 'list_runs', ok: true });
    expect(typeof result.data.summary).toBe('string');
    expect(answerOf(events)).toStartWith('Done: the tool answered');
    expect(events.at(-1)).toEqual({ event: 'done', data: { rounds: 2, tool_calls: 1 } });
    expect(await used(owner.token)).toBe(before + 1);

    // What the model received: the service-wide key, the model, streaming asked, the tools as functions, the result.
    const requests = model.received.slice(asked);
    expect(requests).toHaveLength(2);
    expect(requests[0]!.authorization).toBe(`Bearer ${serviceKey}`);
    expect(requests[0]!.json.model).toBe('scripted-model');
    expect(requests[0]!.json.stream).toBe(true);
    const names = requests[0]!.json.tools!.map((tool) => tool.function.name);
    expect(names).toContain('list_runs');
    expect(names).toContain('run_test');
    expect(requests[1]!.json.messages.at(-1)!.role).toBe('tool');
  });

  test("the answer streams as the model sends it: its first piece arrives before the model's last", async () => {
    model.closeGate();
    const response = await ts.request('/api/v1/assistant/chat', {
      method: 'POST',
      token: owner.jwt,
      json: { messages: [{ role: 'user', content: 'list runs [slow]' }] },
    });
    expect(response.status).toBe(200);
    const reader = response.body!.getReader();
    const decoder = new TextDecoder();
    let text = '';
    while (!text.includes('First piece.')) {
      const { done, value } = await reader.read();
      if (done) throw new Error(`the stream ended before the first piece: ${text}`);
      text += decoder.decode(value, { stream: true });
    }
    expect(text).not.toContain('Second piece.');
    expect(text).not.toContain('event: done');
    model.openGate();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      text += decoder.decode(value, { stream: true });
    }
    expect(text).toContain('Second piece.');
    expect(text).toContain('event: done');
  });

  test('an endpoint that does not stream answers as plain JSON', async () => {
    const { events } = await chat(ts, owner.jwt, 'list my runs [plain]');
    expect(events.map((each) => each.event)).toEqual(['tool_call', 'tool_result', 'delta', 'done']);
    expect(answerOf(events)).toStartWith('Done:');
  });

  test("a viewer's ASK AI cannot start a run: the tool result is REST's refusal and no run exists", async () => {
    const headers = { 'x-workspace-id': workspaceId };
    const { status, events } = await chat(ts, viewerJwt, `please run_test ${testId}`, headers);
    expect(status).toBe(200);
    expect(events.find((each) => each.event === 'tool_call')!.data).toMatchObject({ name: 'run_test', arguments: { test_id: testId } });
    const result = events.find((each) => each.event === 'tool_result')!;
    expect(result.data.ok).toBe(false);
    expect(String(result.data.summary)).toContain('forbidden');
    const tasks = (await (await ts.request('/api/v1/tasks', { token: owner.jwt })).json()) as unknown[];
    expect(tasks).toHaveLength(0);
  });

  test("an env var's value never reaches the model: tool answers and the member's own message are masked", async () => {
    const asked = model.received.length;
    const { events } = await chat(ts, owner.jwt, `show get_test ${testId} (the password is ${secretValue})`);
    const result = events.find((each) => each.event === 'tool_result')!;
    expect(result.data.ok).toBe(true);
    expect(String(result.data.summary)).not.toContain(secretValue);
    const requests = model.received.slice(asked);
    expect(requests.length).toBe(2);
    expect(requests[1]!.json.messages.at(-1)!.content).toContain('curl -u app:***');
    for (const each of model.received) expect(each.body).not.toContain(secretValue);
  });

  test('an exhausted budget: the tool is refused, nothing runs, and the answer ends saying why', async () => {
    const spender = await ts.apiToken('ask-spender');
    expect((await ts.request('/api/v1/workspace', { method: 'PATCH', token: spender.jwt, json: { plan: 'starter' } })).status).toBe(200);
    const { ai_tool_calls } = (await (await ts.request('/api/v1/usage', { token: spender.jwt })).json()) as { ai_tool_calls: { used: number; limit: number } };
    for (let i = ai_tool_calls.used; i < ai_tool_calls.limit; i++) await ts.request('/api/v1/usage/ai-tool-calls', { method: 'POST', token: spender.jwt });
    const asked = model.received.length;
    const { events } = await chat(ts, spender.jwt, 'How are my runs doing?');
    expect(events.find((each) => each.event === 'tool_result')!.data).toMatchObject({ name: 'list_runs', ok: false });
    expect(events.at(-1)).toMatchObject({ event: 'error', data: { error: 'ai_budget_exhausted' } });
    expect(String(events.at(-1)!.data.message)).toContain('monthly AI tool-call budget');
    // The model was asked once: the refused call ended the answer.
    expect(model.received.length - asked).toBe(1);
    expect(await used(spender.jwt)).toBe(ai_tool_calls.limit);
  });

  test('a refused body is a 400; no token is a 401', async () => {
    expect((await ts.request('/api/v1/assistant/chat', { method: 'POST', token: owner.jwt, json: { messages: [] } })).status).toBe(400);
    expect((await ts.request('/api/v1/assistant/chat', { method: 'POST', token: owner.jwt, json: { messages: [{ role: 'system', content: 'x' }] } })).status).toBe(400);
    expect((await ts.request('/api/v1/assistant/chat', { method: 'POST', json: { messages: [{ role: 'user', content: 'x' }] } })).status).toBe(401);
  });

  test("a workspace's own model: the key is never answered, used for its requests only, and invisible to other workspaces", async () => {
    const admin = await ts.apiToken('ask-settings-owner');
    const refused = await ts.request('/api/v1/assistant/settings', { method: 'PUT', token: admin.jwt, json: { api_url: 'http://10.1.2.3/v1', model: 'x' } });
    expect(refused.status).toBe(400);
    const put = await ts.request('/api/v1/assistant/settings', {
      method: 'PUT',
      token: admin.jwt,
      json: { api_url: model.url, model: 'workspace-model', api_key: workspaceKey },
    });
    const putText = await put.text();
    expect(put.status, putText).toBe(200);
    expect(putText).not.toContain(workspaceKey);
    const got = await ts.request('/api/v1/assistant/settings', { token: admin.jwt });
    const gotText = await got.text();
    expect(gotText).not.toContain(workspaceKey);
    expect(JSON.parse(gotText)).toMatchObject({ api_url: model.url, model: 'workspace-model', api_key_set: true, enabled: true });

    const asked = model.received.length;
    await chat(ts, admin.jwt, 'list runs');
    expect(model.received[asked]!.authorization).toBe(`Bearer ${workspaceKey}`);
    expect(model.received[asked]!.json.model).toBe('workspace-model');

    // The first workspace still has the service-wide model, and does not see the other's settings.
    const other = (await (await ts.request('/api/v1/assistant/settings', { token: owner.jwt })).json()) as Record<string, unknown>;
    expect(other).toMatchObject({ api_url: null, model: null, api_key_set: false });
    // A viewer may ask but not read the settings.
    expect((await ts.request('/api/v1/assistant/settings', { token: viewerJwt, headers: { 'x-workspace-id': workspaceId } })).status).toBe(403);

    // Turned off: the panel says so, and chat answers 409.
    await ts.request('/api/v1/assistant/settings', { method: 'PUT', token: admin.jwt, json: { enabled: false } });
    expect(await (await ts.request('/api/v1/assistant', { token: admin.jwt })).json()).toMatchObject({ configured: false, enabled: false });
    expect((await chat(ts, admin.jwt, 'list runs')).status).toBe(409);
  });
});

describe('ASK AI without a model', () => {
  let bare: TestService;
  beforeAll(async () => {
    bare = await startTestService();
  }, 60_000);
  afterAll(() => bare?.stop());

  test('the status and the chat say how to set one', async () => {
    const { jwt } = await bare.apiToken('ask-bare');
    const status = (await (await bare.request('/api/v1/assistant', { token: jwt })).json()) as { configured: boolean; message: string };
    expect(status.configured).toBe(false);
    expect(status.message).toContain('AI_API_URL');
    expect(status.message).toContain('/api/v1/assistant/settings');
    const response = await bare.request('/api/v1/assistant/chat', { method: 'POST', token: jwt, json: { messages: [{ role: 'user', content: 'hi' }] } });
    expect(response.status).toBe(409);
    const body = (await response.json()) as { error: string; message: string };
    expect(body.error).toBe('assistant_not_configured');
    expect(body.message).toContain('AI_MODEL');
  });
});
