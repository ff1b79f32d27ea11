/** Migration 0007: task_logs carries no per-row foreign key, yet deleting a task (or its workspace) still removes its log. */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { startTestService, type TestService } from '../../../tests/helpers/test-service.ts';

let ts: TestService;
const sql = <T>(text: string, params: unknown[] = []) =>
  (ts.service.database.fork() as unknown as { getConnection(): { execute(s: string, p: unknown[]): Promise<T[]> } }).getConnection().execute(text, params);

beforeAll(async () => {
  ts = await startTestService();
}, 60_000);

afterAll(async () => {
  await ts?.stop();
});

test('task_logs has no foreign key; a deleted task takes its log lines with it, other tasks keep theirs', async () => {
  const keys = await sql<{ conname: string }>(`select conname from pg_constraint where conrelid = 'task_logs'::regclass and contype = 'f'`);
  expect(keys).toEqual([]);
  const { token } = await ts.apiToken('log-storage', ['tests:write', 'runs:write']);
  const created = await ts.request('/api/v1/tests', { method: 'POST', token, json: { name: 'log storage', tool: 'custom', script: 'echo' } });
  const testId = ((await created.json()) as { id: string }).id;
  const tasks: string[] = [];
  for (let i = 0; i < 2; i++) {
    const started = await ts.request('/api/v1/tasks', { method: 'POST', token, json: { testId } });
    expect(started.status).toBe(202);
    const id = ((await started.json()) as { id: string }).id;
    tasks.push(id);
    await sql(`insert into task_logs (task_id, seq, source, text, logged_at) values (?, 1, 'out', 'a', now()), (?, 2, 'out', 'b', now())`, [id, id]);
  }
  await sql('delete from tasks where id = ?', [tasks[0]]);
  expect(await sql('select seq from task_logs where task_id = ?', [tasks[0]])).toEqual([]);
  expect((await sql('select seq from task_logs where task_id = ?', [tasks[1]])).length).toBe(2);
});
