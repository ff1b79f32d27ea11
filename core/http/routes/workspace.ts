/** /workspace, /members, /access-controls and /audit-log: the caller's workspace and who may do what in it. */
import { Elysia, t } from 'elysia';
import { planLimits } from '../../domain/plans.ts';
import { roles } from '../../domain/entities/membership.ts';
import { permissions } from '../../domain/permissions.ts';
import { badRequest } from '../../kernel/errors.ts';
import { listAudit, toAuditView } from '../../services/audit-log.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, documented, errorResponses, Integer, NonBlank, Timestamp } from '../schemas/common.ts';
import { literalUnion } from '../schemas/literal-union.ts';
import { Invitation } from './invitations.ts';

const Role = literalUnion(roles);
const Member = t.Object(
  {
    user_id: t.String(),
    username: t.Nullable(t.String()),
    email: t.Nullable(t.String()),
    name: t.Nullable(t.String()),
    role: Role,
    joined_at: Timestamp,
  },
  { title: 'Member' },
);
const RoleMap = t.Object({
  owner: t.Array(t.String()),
  admin: t.Array(t.String()),
  member: t.Array(t.String()),
  viewer: t.Array(t.String()),
});
const AccessControls = t.Object({ roles: RoleMap, permissions: t.Array(t.String()) }, { title: 'AccessControls' });
const WorkspaceView = t.Object(
  {
    id: t.String(),
    name: t.String(),
    plan: t.String(),
    status: t.String(),
    limits: t.Object({
      apiTokensPerUser: Integer(),
      machines: t.Nullable(Integer()),
      tests: t.Nullable(Integer()),
      schedules: t.Nullable(Integer({ description: 'schedules per workspace; null: unlimited' })),
      retentionDays: Integer(),
      metricsRetentionDays: Integer(),
      aiToolCallsPerMonth: t.Nullable(Integer({ description: 'AI (MCP) tool calls per UTC calendar month; null: unlimited' })),
    }),
    role: Role,
    permissions: t.Array(t.String()),
    created_at: Timestamp,
  },
  { title: 'Workspace' },
);
const AuditView = t.Object(
  {
    id: t.String(),
    action: t.String(),
    actor: t.Object({ type: t.String(), id: t.Nullable(t.String()), label: t.Nullable(t.String()), user_id: t.Nullable(t.String()) }),
    target: t.Object({ type: t.String(), id: t.Nullable(t.String()), label: t.Nullable(t.String()) }),
    details: t.Record(t.String(), t.Unknown()),
    time: Timestamp,
    workspace_id: t.String(),
  },
  { title: 'AuditEntry' },
);
const UserParams = t.Object({ userId: t.String() });
const PermissionList = { type: 'array', items: { type: 'string', enum: permissions } };

export const workspaceRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, detail: { security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get('/workspace', ({ caller }) => deps.workspaces.get(caller), {
      response: { 200: WorkspaceView, 401: errorResponses[401] },
      detail: { tags: ['Workspace'], summary: "The caller's workspace, plan limits, role and permissions" },
    })
    .patch('/workspace', ({ caller, body }) => deps.workspaces.update(caller, body), {
      body: t.Object(
        { name: t.Optional(NonBlank({ maxLength: 200 })), plan: t.Optional(t.String(documented({ enum: Object.keys(planLimits) }))) },
        { additionalProperties: false },
      ),
      response: { 200: WorkspaceView, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
      detail: { tags: ['Workspace'], summary: 'Rename the workspace or change its plan (manage_billing)' },
    })
    .get(
      '/members',
      (context) =>
        pagedList(context, (page) => deps.members.list(context.caller, page), (row) => row.member, { order: 'asc' }),
      {
        query: PageQuery,
        response: { 200: t.Array(Member), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { tags: ['Members'], summary: 'Members of the workspace with their roles, first joined first' },
      },
    )
    .post(
      '/members',
      async ({ caller, body, set }) => {
        // An invitation, not yet a membership: the user joins when they accept (POST /auth/me/invitations/:id/accept).
        const invitation = await deps.invitations.invite(caller, body);
        set.status = 201;
        return invitation;
      },
      {
        body: t.Object(
          {
            user: t.String({ minLength: 1, description: 'exact username, or an e-mail the identity provider verified, of a user who has signed in once' }),
            role: Role,
          },
          { additionalProperties: false },
        ),
        response: { 201: Invitation, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404], 409: errorResponses[409] },
        detail: { tags: ['Members'], summary: 'Invite a user with a role; they join when they accept (manage_members; owner role only by owners)' },
      },
    )
    .patch('/members/:userId', ({ caller, params, body }) => deps.members.changeRole(caller, params.userId, body.role), {
      params: UserParams,
      body: t.Object({ role: Role }, { additionalProperties: false }),
      response: { 200: Member, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404], 409: errorResponses[409] },
      detail: { tags: ['Members'], summary: "Change a member's role; the last owner cannot be demoted" },
    })
    .delete(
      '/members/:userId',
      async ({ caller, params, set }) => {
        await deps.members.remove(caller, params.userId);
        set.status = 204;
      },
      {
        params: UserParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404], 409: errorResponses[409] },
        detail: { tags: ['Members'], summary: 'Remove a member; the last owner cannot be removed' },
      },
    )
    .get('/access-controls', ({ caller }) => deps.accessControls.get(caller), {
      response: { 200: AccessControls, 401: errorResponses[401], 403: errorResponses[403] },
      detail: { tags: ['Access controls'], summary: 'Permissions per role (owners only)' },
    })
    .put('/access-controls', ({ caller, body }) => deps.accessControls.update(caller, body.roles), {
      body: t.Object(
        {
          roles: t.Record(t.String(), t.Array(t.String(), { description: permissions.join(', ') }), {
            description: 'admin, member and/or viewer: the complete permission list each should hold (owners hold all)',
            ...documented({
              patternProperties: null,
              properties: { admin: PermissionList, member: PermissionList, viewer: PermissionList },
              additionalProperties: false,
            }),
          }),
        },
        { additionalProperties: false },
      ),
      response: { 200: AccessControls, 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
      detail: { tags: ['Access controls'], summary: 'Change permissions per role (owners only; owners keep all)' },
    })
    .get(
      '/audit-log',
      (context) => {
        const filter = { action: context.query.action?.trim() || undefined, actor: context.query.actor?.trim() || undefined };
        for (const [name, value] of Object.entries(filter)) {
          if (value && value.length > 200) throw badRequest(`${name} must be at most 200 characters`, { field: name });
        }
        return pagedList(context, (page) => listAudit(deps.db.fork(), context.caller.workspace.workspaceId, page, filter), toAuditView);
      },
      {
        query: t.Composite(
          [
            PageQuery,
            t.Object({
              action: t.Optional(t.String({ description: 'only entries of this action, e.g. test.created' })),
              actor: t.Optional(t.String({ description: "only this actor's entries: a user or token id, or its name (case-insensitive)" })),
            }),
          ],
          { additionalProperties: true },
        ),
        response: { 200: t.Array(AuditView), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { tags: ['Audit log'], summary: 'Activity in the workspace, newest first (view_audit_log)' },
      },
    );
