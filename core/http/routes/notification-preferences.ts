/** /notification-preferences: the caller's own opt-ins in this workspace (e-mail when a run fails, and optionally completes). */
import { Elysia, t } from 'elysia';
import { sqlOf } from '../../services/sql.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses } from '../schemas/common.ts';

const EmailPreferences = t.Object(
  {
    on_failed: t.Boolean({ description: 'an e-mail when a run of this workspace fails' }),
    on_completed: t.Boolean({ description: 'an e-mail when a run completes' }),
  },
  { additionalProperties: false },
);
const Preferences = t.Object({ email: EmailPreferences }, { title: 'NotificationPreferences', additionalProperties: false });

export const notificationPreferenceRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/notification-preferences', detail: { tags: ['Notifications'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get(
      '',
      async ({ caller }) => {
        const [row] = await sqlOf(deps.db).all<{ on_failed: boolean; on_completed: boolean }>(
          "select on_failed, on_completed from notification_preferences where workspace_id = ? and user_id = ? and channel = 'email'",
          [caller.workspace.workspaceId, caller.userId],
        );
        return { email: { on_failed: row?.on_failed ?? false, on_completed: row?.on_completed ?? false } };
      },
      { response: { 200: Preferences, 401: errorResponses[401], 403: errorResponses[403] }, detail: { summary: "The caller's notification opt-ins" } },
    )
    .put(
      '',
      async ({ caller, body }) => {
        await sqlOf(deps.db).all(
          `insert into notification_preferences (workspace_id, user_id, channel, on_failed, on_completed, updated_at) values (?, ?, 'email', ?, ?, now())
           on conflict (workspace_id, user_id, channel) do update set on_failed = excluded.on_failed, on_completed = excluded.on_completed, updated_at = now()`,
          [caller.workspace.workspaceId, caller.userId, body.email.on_failed, body.email.on_completed],
        );
        return body;
      },
      {
        body: Preferences,
        response: { 200: Preferences, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: 'Set the caller’s opt-ins; e-mails go to the address of their identity (SMTP_URL must be set)' },
      },
    );
