/**
 * The journal's REST endpoints, under the service's /api/v1 with its authentication: GET /run-journal (the caller's
 * workspace only, newest first, filtered by status) and PUT /run-journal/{taskId}/note (in the workspace's audit log).
 */
import { type ApiEndpoints, notFound, type SqlDatabase, Type, type WorkspaceAuditLog } from '@loadplane/plugin-kit';

const Entry = Type.Object(
  {
    task_id: Type.String(),
    test_id: Type.Union([Type.String(), Type.Null()]),
    status: Type.String(),
    verdict: Type.Union([Type.String(), Type.Null()]),
    duration_ms: Type.Integer(),
    error: Type.Union([Type.String(), Type.Null()]),
    note: Type.Union([Type.String(), Type.Null()]),
    finished_at: Type.String({ format: 'date-time' }),
  },
  { title: 'RunJournalEntry' },
);

interface Row {
  task_id: string;
  test_id: string | null;
  status: string;
  verdict: string | null;
  duration_ms: string | number;
  error: string | null;
  note: string | null;
  finished_at: string | Date;
}

const view = (row: Row) => ({ ...row, duration_ms: Number(row.duration_ms), finished_at: new Date(row.finished_at).toISOString() });
const columns = 'task_id, test_id, status, verdict, duration_ms, error, note, finished_at';
const uuid = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function journalEndpoints(db: SqlDatabase, audit: WorkspaceAuditLog): ApiEndpoints {
  return {
    name: 'loadplane-plugin-run-journal',
    tag: 'Run journal',
    endpoints: [
      {
        method: 'GET',
        path: '/run-journal',
        policy: { scope: 'runs:read' },
        summary: "The workspace's finished runs, newest first, with their notes",
        query: Type.Object(
          {
            status: Type.Optional(Type.Union([Type.Literal('completed'), Type.Literal('failed'), Type.Literal('cancelled')])),
            limit: Type.Optional(Type.Integer({ minimum: 1, maximum: 100, default: 20 })),
          },
          { additionalProperties: false },
        ),
        response: Type.Array(Entry),
        async handle({ caller, query }) {
          const { status, limit } = query as { status?: string; limit?: number };
          const rows = await db.all<Row>(
            `select ${columns} from run_journal_entries where workspace_id = ? ${status ? 'and status = ?' : ''}
             order by finished_at desc, task_id limit ?`,
            [caller.workspace.workspaceId, ...(status ? [status] : []), limit ?? 20],
          );
          return rows.map(view);
        },
      },
      {
        method: 'PUT',
        path: '/run-journal/:taskId/note',
        policy: { scope: 'runs:write', permission: 'run_tests' },
        summary: "Set a finished run's note in the journal",
        body: Type.Object({ note: Type.String({ maxLength: 500 }) }, { additionalProperties: false }),
        response: Entry,
        async handle({ caller, params, body }) {
          // Another workspace's run, or one the journal never saw, is not found: the same answer for both.
          if (!uuid.test(params.taskId ?? '')) throw notFound('no such run in the journal');
          const { note } = body as { note: string };
          // The note and its audit entry commit together, or neither does.
          const row = await db.transaction(async (tx) => {
            const [updated] = await tx.all<Row>(
              `update run_journal_entries set note = ? where workspace_id = ? and task_id = ? returning ${columns}`,
              [note === '' ? null : note, caller.workspace.workspaceId, params.taskId],
            );
            if (!updated) throw notFound('no such run in the journal');
            await audit.record(tx, caller, 'run_journal.note_set', { type: 'run', id: updated.task_id }, { cleared: note === '' });
            return updated;
          });
          return view(row);
        },
      },
    ],
  };
}
