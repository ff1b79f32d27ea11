/** Membership through the front door: the owner invites (POST /members), the invitee accepts (POST /auth/me/invitations/:id/accept). */
import type { TestService } from './test-service.ts';

type Requester = Pick<TestService, 'request'>;

/** Invites `handle` and has `inviteeToken` accept; returns the invitation answer and the acceptance's status. */
export async function inviteAndAccept(ts: Requester, ownerToken: string, handle: string, role: string, inviteeToken: string, headers: Record<string, string> = {}) {
  const invited = await ts.request('/api/v1/members', { method: 'POST', token: ownerToken, headers, json: { user: handle, role } });
  if (invited.status !== 201) return { invited, accepted: null };
  const { id } = (await invited.clone().json()) as { id: string };
  const accepted = await ts.request(`/api/v1/auth/me/invitations/${id}/accept`, { method: 'POST', token: inviteeToken });
  if (accepted.status !== 200) throw new Error(`accepting invitation ${id}: ${accepted.status} ${await accepted.text()}`);
  return { invited, accepted };
}
