/** Member invitations: the workspace's pending ones (/members/invitations) and the caller's own, to accept or decline (/auth/me/invitations). */
import { Elysia, t } from 'elysia';
import { roles } from '../../domain/entities/membership.ts';
import { invitationView } from '../../services/member-invitations.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, errorResponses, IdParams, Timestamp } from '../schemas/common.ts';
import { literalUnion } from '../schemas/literal-union.ts';

const Role = literalUnion(roles);
const WorkspaceRef = t.Object({ id: t.String(), name: t.String() });

export const Invitation = t.Object(
  {
    id: t.String(),
    user: t.String({ description: 'the username or e-mail as the inviter typed it; nothing else is shown until the user accepts' }),
    role: Role,
    status: t.Union([t.Literal('pending'), t.Literal('expired')], {
      description: 'expired: not accepted within seven days (expires_at); the invitee no longer sees it, invite again to renew',
    }),
    invited_at: Timestamp,
    expires_at: Timestamp,
  },
  { title: 'Invitation' },
);

const ReceivedInvitation = t.Object(
  {
    id: t.String(),
    workspace: WorkspaceRef,
    role: Role,
    invited_by: t.Nullable(t.String({ description: 'username of the member who invited you' })),
    invited_at: Timestamp,
    expires_at: Timestamp,
  },
  { title: 'ReceivedInvitation' },
);

const Joined = t.Object({ workspace: WorkspaceRef, role: Role, joined_at: Timestamp }, { title: 'JoinedWorkspace' });

export const invitationRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, detail: { tags: ['Members'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get(
      '/members/invitations',
      (context) => pagedList(context, (page) => deps.invitations.pending(context.caller, page), (row) => invitationView(row)),
      {
        query: PageQuery,
        response: { 200: t.Array(Invitation), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: 'Pending invitations of the workspace, newest first (manage_members)' },
      },
    )
    .delete(
      '/members/invitations/:id',
      async ({ caller, params, set }) => {
        await deps.invitations.withdraw(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Withdraw a pending invitation (manage_members)' },
      },
    )
    .get(
      '/auth/me/invitations',
      (context) =>
        pagedList(
          context,
          (page) => deps.invitations.received(context.caller, page),
          ({ createdAt: _, ...view }) => view,
        ),
      {
        query: PageQuery,
        response: { 200: t.Array(ReceivedInvitation), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
        detail: { summary: 'Invitations to other workspaces waiting for your answer, newest first' },
      },
    )
    .post('/auth/me/invitations/:id/accept', ({ caller, params }) => deps.invitations.accept(caller, params.id), {
      params: IdParams,
      response: { 200: Joined, 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
      detail: { summary: 'Accept an invitation: you join the workspace with its role (act there with X-Workspace-Id)' },
    })
    .delete(
      '/auth/me/invitations/:id',
      async ({ caller, params, set }) => {
        await deps.invitations.decline(caller, params.id);
        set.status = 204;
      },
      {
        params: IdParams,
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Decline an invitation' },
      },
    );
