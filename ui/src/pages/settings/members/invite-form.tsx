/** InviteForm: invite a user by exact username or verified e-mail with a role (POST /members {user, role}). */
import { useId, useState, type FormEvent } from 'react';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api, unwrap } from '../../../api/client';
import { ErrorNotice } from '../../../components/common/error-notice';
import type { Invitation, Role } from '../settings-types';
import { focusFirstError, TextField } from '../../../components/common/text-field';
import { assignableRoles, roleHelp, validateInvite } from './member-model';

export function InviteForm({ myRole, onInvited }: { myRole: Role | undefined; onInvited(invitation: Invitation): void }) {
  const id = useId().replace(/:/g, '');
  const queryClient = useQueryClient();
  const [user, setUser] = useState('');
  const [role, setRole] = useState<Role>('member');
  const [error, setError] = useState<string | undefined>();
  const invite = useMutation({
    mutationFn: (body: { user: string; role: Role }) => unwrap(api.POST('/api/v1/members', { body })),
    onSuccess: (invitation) => {
      setUser('');
      void queryClient.invalidateQueries({ queryKey: ['members'] });
      onInvited(invitation);
    },
  });

  const submit = (event: FormEvent) => {
    event.preventDefault();
    const found = validateInvite(user) ?? undefined;
    setError(found);
    if (found) return focusFirstError(id);
    invite.mutate({ user: user.trim(), role });
  };

  return (
    <form id={id} className="panel" onSubmit={submit} noValidate aria-labelledby={`${id}-title`}>
      <h2 id={`${id}-title`}>Invite a member</h2>
      <div className="field-row">
        <TextField
          id={`${id}-user`}
          label="Username or e-mail"
          value={user}
          onChange={setUser}
          error={error}
          hint="Matched exactly. The person must have signed in to Loadplane once; an e-mail counts only when the identity provider verified it."
          inputProps={{ autoComplete: 'off', spellCheck: false, size: 32, maxLength: 320 }}
        />
        <div className="field">
          <label htmlFor={`${id}-role`}>Role</label>
          <select id={`${id}-role`} value={role} onChange={(event) => setRole(event.target.value as Role)} aria-describedby={`${id}-role-hint`}>
            {assignableRoles(myRole).map((option) => (
              <option key={option} value={option}>
                {option}
              </option>
            ))}
          </select>
          <p className="field-hint" id={`${id}-role-hint`}>
            {roleHelp[role]}
          </p>
        </div>
      </div>
      <ErrorNotice error={invite.error} title="Nobody was invited" />
      <div className="actions">
        <button type="submit" className="button primary" disabled={invite.isPending}>
          {invite.isPending ? 'Inviting…' : 'Send invitation'}
        </button>
      </div>
      <p className="field-hint">They see the invitation when they sign in, and join when they accept it. It expires after seven days.</p>
    </form>
  );
}
