/**
 * GET and PUT /api/v1/notification-preferences: the caller's own e-mail opt-ins in this workspace (an e-mail when a run
 * fails, and optionally when one completes), served through the host's API routes (its authentication and policies).
 */
import { Elysia, t } from 'elysia';
import { type ApiRoutes, bearerSecurity, type Database, errorResponses, type RoutePolicy, sqlOf } from 'loadplane/plugin';

const EmailPreferences = t.Object(
  {
    on_failed: t.Boolean({ description: 'an e-mail when a run of this workspace fails' }),
    on_completed: t.Boolean({ description: 'an e-mail when a run completes' }),
  },
  { additionalProperties: false },
);
const Preferences = t.Object({ email: EmailPreferences }, { title: 'NotificationPreferences', additionalProperties: false });

// Each member sets their own opt-ins; scoped tokens are for automation, not for a person's inbox.
const ownInbox: RoutePolicy = { scope: null };

export function preferenceRoutes(db: Database): ApiRoutes {
  return {
    name: 'notify-email',
    policies: {
      'GET /api/v1/notification-preferences': ownInbox,
      'PUT /api/v1/notification-preferences': ownInbox,
    },
    routes: (kit) =>
      new Elysia({ normalize: false, prefix: '/notification-preferences', detail: { tags: ['Notifications'], security: bearerSecurity } })
        .use(kit.requireCaller())
        .get(
          '',
          async ({ caller }) => {
            const [row] = await sqlOf(db).all<{ on_failed: boolean; on_completed: boolean }>(
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
            await sqlOf(db).all(
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
        ),
  };
}
