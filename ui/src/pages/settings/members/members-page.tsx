/**
 * The members page (/settings/members): members with their roles (change, remove), invite by exact username or verified
 * e-mail, pending invitations (withdraw). The API's refusals (the last owner stays; only owners grant owner) are shown
 * as it words them.
 */
import { useState } from 'react';
import { useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api, unwrap, unwrapPage } from '../../../api/client';
import { ConfirmButton } from '../../../components/common/confirm-button';
import { ErrorNotice } from '../../../components/common/error-notice';
import { formatDateTime, formatRelativeTime } from '../../../components/common/formatters';
import { Loading } from '../../../components/common/loading';
import { PageHeader } from '../../../components/common/page-header';
import { identityQuery } from '../../../workspace/workspace-queries';
import type { Invitation, Member, Role } from '../settings-types';
import { hasPermission, useCurrentWorkspace } from '../use-current-workspace';
import { InviteForm } from './invite-form';
import { memberName } from './member-model';
import { MemberRow } from './member-row';
import '../settings.css';

export default function MembersPage() {
  const queryClient = useQueryClient();
  const workspace = useCurrentWorkspace();
  const identity = useQuery(identityQuery);
  const [notice, setNotice] = useState<string | null>(null);
  const members = useInfiniteQuery({
    queryKey: ['members', 'pages'],
    initialPageParam: '',
    queryFn: ({ pageParam }) => unwrapPage(api.GET('/api/v1/members', { params: { query: { limit: 100, cursor: pageParam || undefined } } })),
    getNextPageParam: (last) => last.nextCursor ?? undefined,
  });
  const canManage = hasPermission(workspace.data, 'manage_members');
  const invitations = useQuery({
    queryKey: ['members', 'invitations'],
    queryFn: () => unwrap(api.GET('/api/v1/members/invitations', { params: { query: { limit: 1000 } } })),
    enabled: canManage,
  });
  const invalidate = () => queryClient.invalidateQueries({ queryKey: ['members'] });
  const changeRole = useMutation({
    mutationFn: ({ member, role }: { member: Member; role: Role }) =>
      unwrap(api.PATCH('/api/v1/members/{userId}', { params: { path: { userId: member.user_id } }, body: { role } })),
    onSuccess: (saved) => {
      setNotice(`${memberName(saved)} is now ${saved.role}.`);
      void queryClient.invalidateQueries({ queryKey: ['workspace'] });
    },
    onSettled: invalidate,
  });
  const remove = useMutation({
    mutationFn: (member: Member) => unwrap(api.DELETE('/api/v1/members/{userId}', { params: { path: { userId: member.user_id } } })),
    onSuccess: (_, member) => setNotice(`${memberName(member)} was removed.`),
    onSettled: invalidate,
  });
  const withdraw = useMutation({
    mutationFn: (invitation: Invitation) => unwrap(api.DELETE('/api/v1/members/invitations/{id}', { params: { path: { id: invitation.id } } })),
    onSuccess: (_, invitation) => setNotice(`The invitation of ${invitation.user} was withdrawn.`),
    onSettled: invalidate,
  });

  const list = members.data?.pages.flatMap((page) => page.items) ?? [];
  const myRole = workspace.data?.role;
  const me = identity.data;
  const isMe = (member: Member) =>
    Boolean(me && ((me.preferred_username && member.username === me.preferred_username) || member.user_id === me.sub));
  const pending = invitations.data ?? [];
  const rowKey = (member: Member) => `${member.user_id}:${member.role}`;

  return (
    <>
      <PageHeader
        title="Members"
        description="Who belongs to this workspace and with which role. What each role may do is set in Access controls."
      />
      {notice ? (
        <div className="notice notice-success" role="status">
          <p>{notice}</p>
        </div>
      ) : null}
      {canManage ? (
        <InviteForm
          myRole={myRole}
          onInvited={(invitation) => setNotice(`Invited ${invitation.user} as ${invitation.role}. They join when they accept.`)}
        />
      ) : null}
      <ErrorNotice error={changeRole.error} title="The role was not changed" />
      <ErrorNotice error={remove.error} title="The member was not removed" />
      <ErrorNotice error={withdraw.error} title="The invitation was not withdrawn" />
      {members.isPending ? (
        <Loading label="Loading members…" />
      ) : !members.data ? (
        <ErrorNotice error={members.error} />
      ) : (
        <div className="table-wrap">
          <table>
            <caption>
              {list.length} {list.length === 1 ? 'member' : 'members'}, first joined first
            </caption>
            <thead>
              <tr>
                <th scope="col">Member</th>
                <th scope="col">Role</th>
                <th scope="col">Joined</th>
                <th scope="col">
                  <span className="visually-hidden">Actions</span>
                </th>
              </tr>
            </thead>
            <tbody>
              {list.map((member) => (
                <MemberRow
                  key={rowKey(member)}
                  member={member}
                  myRole={myRole}
                  isMe={isMe(member)}
                  canManage={canManage}
                  saving={changeRole.isPending && changeRole.variables?.member.user_id === member.user_id}
                  removing={remove.isPending && remove.variables?.user_id === member.user_id}
                  onRole={(role) => changeRole.mutate({ member, role })}
                  onRemove={() => remove.mutate(member)}
                />
              ))}
            </tbody>
          </table>
        </div>
      )}
      {members.hasNextPage ? (
        <div className="pager">
          <button type="button" className="button" onClick={() => void members.fetchNextPage()} disabled={members.isFetchingNextPage}>
            {members.isFetchingNextPage ? 'Loading more…' : 'Load more'}
          </button>
        </div>
      ) : null}
      {canManage ? (
        <section className="settings-section" aria-labelledby="invitations-title">
          <h2 id="invitations-title">Invitations</h2>
          {invitations.isPending ? (
            <Loading label="Loading invitations…" />
          ) : !invitations.data ? (
            <ErrorNotice error={invitations.error} />
          ) : pending.length === 0 ? (
            <p className="muted">No open invitations. Invite someone above: they join when they accept.</p>
          ) : (
            <div className="table-wrap">
              <table>
                <caption>Invitations not accepted yet, newest first</caption>
                <thead>
                  <tr>
                    <th scope="col">Invited</th>
                    <th scope="col">Role</th>
                    <th scope="col">Status</th>
                    <th scope="col">Sent</th>
                    <th scope="col">Expires</th>
                    <th scope="col">
                      <span className="visually-hidden">Actions</span>
                    </th>
                  </tr>
                </thead>
                <tbody>
                  {pending.map((invitation) => (
                    <tr key={invitation.id}>
                      <th scope="row">{invitation.user}</th>
                      <td>{invitation.role}</td>
                      <td>
                        <span className={`badge badge-${invitation.status === 'pending' ? 'info' : 'muted'}`}>{invitation.status}</span>
                      </td>
                      <td>
                        <time dateTime={invitation.invited_at} title={formatDateTime(invitation.invited_at)}>
                          {formatRelativeTime(invitation.invited_at)}
                        </time>
                      </td>
                      <td>
                        <time dateTime={invitation.expires_at} title={formatDateTime(invitation.expires_at)}>
                          {formatRelativeTime(invitation.expires_at)}
                        </time>
                      </td>
                      <td>
                        <ConfirmButton
                          label="Withdraw"
                          confirmLabel={`Withdraw the invitation of ${invitation.user}`}
                          keepLabel="Keep"
                          question={`Withdraw the invitation of ${invitation.user}?`}
                          busy={withdraw.isPending && withdraw.variables?.id === invitation.id}
                          onConfirm={() => withdraw.mutate(invitation)}
                        />
                      </td>
                    </tr>
                  ))}
                </tbody>
              </table>
            </div>
          )}
        </section>
      ) : null}
    </>
  );
}
