/**
 * E-mail notifications through a real SMTP server started here (smtp-server): a member who opted in to failures gets
 * one message when a real run fails, one who did not gets none, and completed runs mail only those who asked.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { SMTPServer } from 'smtp-server';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import { freePort } from '../helpers/service-process.ts';

interface Mail {
  to: string[];
  raw: string;
}
const mails: Mail[] = [];
let smtp: SMTPServer;
let fixture: ServiceWithAgent;

beforeAll(async () => {
  const port = await freePort();
  smtp = new SMTPServer({
    authOptional: true,
    disabledCommands: ['STARTTLS', 'AUTH'],
    onData(stream, session, callback) {
      let raw = '';
      stream.on('data', (chunk: Buffer) => (raw += chunk.toString('utf8')));
      stream.on('end', () => {
        // Undo quoted-printable soft line breaks, so assertions read the text as written.
        mails.push({ to: session.envelope.rcptTo.map((r) => r.address), raw: raw.replaceAll('=\r\n', '') });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => smtp.listen(port, '127.0.0.1', resolve));
  fixture = await startServiceWithAgent('mailowner', { env: { SMTP_URL: `smtp://127.0.0.1:${port}` } });
}, 60_000);
afterAll(async () => {
  await fixture?.stop();
  await new Promise<void>((resolve) => smtp.close(() => resolve()));
});

async function run(script: string, name: string) {
  const { ts, jwt } = fixture;
  const created = await ts.request('/api/v1/tests', { method: 'POST', token: jwt, json: { name, tool: 'custom', script } });
  const { id: testId } = (await created.json()) as { id: string };
  const task = (await (await ts.request('/api/v1/tasks', { method: 'POST', token: jwt, json: { testId } })).json()) as { id: string };
  for (let i = 0; i < 400; i++) {
    const view = (await (await ts.request(`/api/v1/tasks/${task.id}`, { token: jwt })).json()) as { status: string };
    if (['completed', 'failed', 'cancelled'].includes(view.status)) return task.id;
    await Bun.sleep(25);
  }
  throw new Error('the run never finished');
}

async function waitForMails(count: number) {
  for (let i = 0; i < 200 && mails.length < count; i++) await Bun.sleep(25);
}

test('opted-in members get an e-mail when a run fails; completions only for those who asked', async () => {
  const { ts, jwt } = fixture;
  // The owner wants failures only (their address: mailowner@example.test, from the identity provider).
  expect(await (await ts.request('/api/v1/notification-preferences', { token: jwt })).json()).toEqual({ email: { on_failed: false, on_completed: false } });
  const put = await ts.request('/api/v1/notification-preferences', { method: 'PUT', token: jwt, json: { email: { on_failed: true, on_completed: false } } });
  expect(put.status).toBe(200);
  expect(await (await ts.request('/api/v1/notification-preferences', { token: jwt })).json()).toEqual({ email: { on_failed: true, on_completed: false } });
  const bad = await ts.request('/api/v1/notification-preferences', { method: 'PUT', token: jwt, json: { email: { on_failed: 'yes' } } });
  expect(bad.status).toBe(400);

  const failedTask = await run('#!/bin/sh\necho broken\nexit 4\n', 'nightly checkout');
  await waitForMails(1);
  expect(mails).toHaveLength(1);
  expect(mails[0]!.to).toEqual(['mailowner@example.test']);
  expect(mails[0]!.raw).toContain('Subject: [Loadplane] nightly checkout: run failed');
  expect(mails[0]!.raw).toContain(`/api/v1/tasks/${failedTask}/log-stream`);

  // A completed run mails nobody here (no one asked) ...
  await run('#!/bin/sh\necho fine\n', 'smoke');
  await Bun.sleep(1000);
  expect(mails).toHaveLength(1);
  // ... until the owner asks for completions too.
  await ts.request('/api/v1/notification-preferences', { method: 'PUT', token: jwt, json: { email: { on_failed: true, on_completed: true } } });
  await run('#!/bin/sh\necho fine\n', 'smoke again');
  await waitForMails(2);
  expect(mails).toHaveLength(2);
  expect(mails[1]!.raw).toContain('Subject: [Loadplane] smoke again: run completed');
}, 60_000);
