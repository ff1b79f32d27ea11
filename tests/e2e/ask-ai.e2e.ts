/**
 * ASK AI in the browser: the header button opens the labelled panel on any page, Esc closes it and gives focus back;
 * without a model it says how to set one. With a scripted OpenAI-compatible model on loopback (a tool call to
 * `list_runs`, then a final message) set as the workspace's model, the panel shows the call, the answer and the budget
 * moved by one. The model URL passes the outbound guard because global-setup.ts starts the service with
 * WEBHOOK_ALLOW_HOSTS=127.0.0.1.
 */
import { createServer, type Server } from 'node:http';
import { api, expect, expectNoSeriousA11yViolations, test } from './fixtures.ts';

function startScriptedModel(): Promise<{ url: string; server: Server }> {
  const sse = (chunks: unknown[]) => chunks.map((chunk) => `data: ${JSON.stringify(chunk)}\n\n`).join('') + 'data: [DONE]\n\n';
  const server = createServer((request, response) => {
    let body = '';
    request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
    request.on('end', () => {
      const messages = (JSON.parse(body) as { messages: { role: string }[] }).messages;
      response.writeHead(200, { 'content-type': 'text/event-stream' });
      if (messages.at(-1)!.role === 'tool') {
        response.end(sse([{ choices: [{ delta: { content: 'Your workspace has ' } }] }, { choices: [{ delta: { content: 'runs listed above.' } }] }]));
      } else {
        response.end(
          sse([{ choices: [{ delta: { tool_calls: [{ index: 0, id: 'call_1', type: 'function', function: { name: 'list_runs', arguments: '{"limit":5}' } }] } }] }]),
        );
      }
    });
  });
  return new Promise((done) => server.listen(0, '127.0.0.1', () => done({ url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, server })));
}

test('the Ask AI panel: keyboard, and how to set a model when none is', async ({ app: page }) => {
  const status = await api.get<{ configured: boolean }>('/assistant');
  const toggle = page.getByRole('button', { name: 'Ask AI', exact: true });
  await toggle.click();
  const panel = page.getByRole('dialog', { name: 'Ask AI' });
  await expect(panel).toBeVisible();
  await expect(toggle).toHaveAttribute('aria-expanded', 'true');
  if (!status.configured) {
    await expect(panel.getByText('No model is set')).toBeVisible();
    await expect(panel.getByText('AI_API_URL').first()).toBeVisible();
    await expect(panel.getByText('Model settings (admins)')).toBeVisible();
  }
  await expectNoSeriousA11yViolations(page, 'the Ask AI panel');
  await page.keyboard.press('Escape');
  await expect(panel).toHaveCount(0);
  await expect(toggle).toBeFocused();
});

test('Ask AI answers with a tool call shown, and the budget moves by one', async ({ app: page }) => {
  const model = await startScriptedModel();
  try {
    await api.call('PUT', '/assistant/settings', { api_url: model.url, model: 'scripted-model', api_key: 'e2e-key' }).catch((error: unknown) => {
      throw new Error(`the workspace's model was refused (global-setup.ts must start the service with WEBHOOK_ALLOW_HOSTS=127.0.0.1): ${String(error)}`);
    });
    const before = (await api.get<{ ai_tool_calls: { used: number } }>('/usage')).ai_tool_calls.used;
    await page.getByRole('button', { name: 'Ask AI', exact: true }).click();
    const panel = page.getByRole('dialog', { name: 'Ask AI' });
    const question = panel.getByLabel('Your question');
    await expect(question).toBeFocused();
    await question.fill('How are my runs doing?');
    await question.press('Enter');
    const calls = panel.getByRole('list', { name: 'Tool calls' });
    await expect(calls.getByText('list_runs')).toBeVisible();
    await expect(calls.getByText('ok', { exact: true })).toBeVisible();
    await expect(panel.getByText('Your workspace has runs listed above.')).toBeVisible();
    await expect(panel.getByTestId('ask-ai-budget')).toContainText(`AI tool calls this month: ${before + 1}`);
    expect((await api.get<{ ai_tool_calls: { used: number } }>('/usage')).ai_tool_calls.used).toBe(before + 1);
    await expectNoSeriousA11yViolations(page, 'an Ask AI answer');
  } finally {
    await api.call('PUT', '/assistant/settings', { api_url: null, model: null, api_key: null }).catch(() => {});
    model.server.close();
  }
});
