/**
 * E-mail notifications through a real SMTP server started here (smtp-server): a member who opted in to failures gets
 * one message when a real run fails, one who did not gets none, and completed runs mail only those who asked; among
 * several members, one who opted out of the event, one who opted in elsewhere, a removed one and an outsider get none.
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { SMTPServer } from 'smtp-server';
import { sqlOf } from '../../core/services/sql.ts';
import { inviteAndAccept } from '../helpers/invitations.ts';
import { type ServiceWithAgent, startServiceWithAgent } from '../helpers/service-with-agent.ts';
import { freePort } from '../helpers/service-process.ts';
import { waitFor } from '../helpers/process-probes.ts';

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
  await waitFor(async () => {
    const view = (await (await ts.request(`/api/v1/tasks/${task.id}`, { token: jwt })).json()) as { status: string };
    return ['completed', 'failed', 'cancelled'].includes(view.status);
  }, 60_000, `run ${task.id} to finish`);
  return task.id;
}

async function waitForMails(count: number) {
  await waitFor(() => mails.length >= count, 30_000, () => `${count} mails (got ${mails.length})`);
}

interface Notification {
  to_address: string;
  state: string;
}

/**
 * Waits until the e-mail consumer is done with the run's `run.finished` outbox row: its cursor is past the row (so the set of
 * messages for it is fixed, written in the same transaction) and none of its messages still waits to be sent (a
 * message is `sent` only once the SMTP server accepted it). Then every mail this run will ever cause has arrived.
 */
async function emailsSettled(taskId: string): Promise<Notification[]> {
  const sql = sqlOf(fixture.ts.service.database);
  let settled: Notification[] | null = null;
  await waitFor(async () => {
    // Handled once the e-mail channel's outbox cursor stands at or past the row.
    const [row] = await sql.all<{ id: string; handled: boolean }>(
      `select o.id, o.id <= c.last_id as handled from outbox o join outbox_cursors c on c.consumer = 'notify-email'
       where o.task_id = ? and o.event = 'run.finished'`,
      [taskId],
    );
    if (!row?.handled) return false;
    const notifications = await sql.all<Notification>('select to_address, state from email_notifications where outbox_id = ? order by to_address', [row.id]);
    if (notifications.some((n) => n.state === 'waiting')) return false;
    settled = notifications;
    return true;
  }, 60_000, `the e-mails of run ${taskId} to settle`);
  return settled!;
}

const recipientsOf = (subject: string) =>
  mails
    .filter((mail) => mail.raw.includes(`Subject: ${subject}`))
    .flatMap((mail) => mail.to)
    .sort();

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
  const completed = await run('#!/bin/sh\necho fine\n', 'smoke');
  expect(await emailsSettled(completed)).toEqual([]);
  expect(mails).toHaveLength(1);
  // ... until the owner asks for completions too.
  await ts.request('/api/v1/notification-preferences', { method: 'PUT', token: jwt, json: { email: { on_failed: true, on_completed: true } } });
  await run('#!/bin/sh\necho fine\n', 'smoke again');
  await waitForMails(2);
  expect(mails).toHaveLength(2);
  expect(mails[1]!.raw).toContain('Subject: [Loadplane] smoke again: run completed');
}, 60_000);

test('a finished run mails the members who opted in to it, and nobody else: opted out, opted in elsewhere, removed, outsider', async () => {
  const { ts, jwt } = fixture;
  const shared = ((await (await ts.request('/api/v1/workspace', { token: jwt })).json()) as { id: string }).id;
  const here = { 'x-workspace-id': shared };
  const prefer = async (token: string, email: { on_failed: boolean; on_completed: boolean }, headers: Record<string, string> = here) => {
    const put = await ts.request('/api/v1/notification-preferences', { method: 'PUT', token, headers, json: { email } });
    expect(put.status).toBe(200);
  };
  /** A user who signed in once (so they can be invited), with a workspace of their own. */
  const user = async (name: string) => {
    const token = await ts.createUser(name);
    expect((await ts.request('/api/v1/auth/me', { token })).status).toBe(200);
    return { token };
  };
  const join = async (name: string, role: string) => {
    const joined = await user(name);
    const { invited } = await inviteAndAccept(ts, jwt, name, role, joined.token);
    expect(invited.status).toBe(201);
    const members = (await (await ts.request('/api/v1/members', { token: jwt })).json()) as { user_id: string; username: string }[];
    return { ...joined, id: members.find((m) => m.username === name)!.user_id };
  };

  await prefer(jwt, { on_failed: true, on_completed: true });
  const ann = await join('ann', 'member');
  await prefer(ann.token, { on_failed: false, on_completed: true });
  // No rule by role: a viewer who opted in is mailed like anyone else.
  const vic = await join('vic', 'viewer');
  await prefer(vic.token, { on_failed: false, on_completed: true });
  // Olga wanted completions, then opted out of them (she keeps failures).
  const olga = await join('olga', 'member');
  await prefer(olga.token, { on_failed: true, on_completed: true });
  await prefer(olga.token, { on_failed: true, on_completed: false });
  // Dan opted in to completions in his own workspace only, not in this one.
  const dan = await join('dan', 'member');
  await prefer(dan.token, { on_failed: true, on_completed: true }, {});
  // Rex opted in here, then was removed: his preferences stay in the table, his membership does not.
  const rex = await join('rex', 'member');
  await prefer(rex.token, { on_failed: true, on_completed: true });
  expect((await ts.request(`/api/v1/members/${rex.id}`, { method: 'DELETE', token: jwt })).status).toBe(204);
  // Oscar never joined: he opted in to everything in his own workspace.
  const oscar = await user('oscar');
  await prefer(oscar.token, { on_failed: true, on_completed: true }, {});
  expect(await (await ts.request('/api/v1/notification-preferences', { token: olga.token, headers: here })).json()).toEqual({
    email: { on_failed: true, on_completed: false },
  });

  const wanted = ['ann@example.test', 'mailowner@example.test', 'vic@example.test'];
  const subject = '[Loadplane] members release: run completed';
  const completed = await run('#!/bin/sh\necho fine\n', 'members release');
  await waitFor(() => recipientsOf(subject).length >= wanted.length, 30_000, () => `mails to ${wanted.join(', ')}`);
  expect(recipientsOf(subject)).toEqual(wanted);
  // Only once the consumer is done with this run's event does absence mean anything.
  expect(await emailsSettled(completed)).toEqual(wanted.map((to_address) => ({ to_address, state: 'sent' })));
  expect(recipientsOf(subject)).toEqual(wanted);
  // Nor did any other mail (of this run or an earlier one) reach those who should get none.
  const unwanted = ['dan@example.test', 'olga@example.test', 'oscar@example.test', 'rex@example.test'];
  expect(mails.flatMap((mail) => mail.to).filter((to) => unwanted.includes(to))).toEqual([]);

  // Olga's opt-out is of completions only: a failed run mails her (and the owner), not Ann or Vic.
  const failedSubject = '[Loadplane] members nightly: run failed';
  const failed = await run('#!/bin/sh\nexit 3\n', 'members nightly');
  expect((await emailsSettled(failed)).map((n) => n.to_address)).toEqual(['mailowner@example.test', 'olga@example.test']);
  expect(recipientsOf(failedSubject)).toEqual(['mailowner@example.test', 'olga@example.test']);
}, 60_000);
