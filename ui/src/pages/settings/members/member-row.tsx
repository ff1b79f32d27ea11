/** MemberRow: a member's name, role (a select with its own save) and removal; the API's refusal is shown by the page. */
import { useId, useState } from 'react';
import { ConfirmButton } from '../../../components/common/confirm-button';
import { formatDateTime, formatRelativeTime } from '../../../components/common/formatters';
import type { Member, Role } from '../settings-types';
import { assignableRoles, memberDetail, memberName } from './member-model';

export function MemberRow(props: {
  member: Member;
  myRole: Role | undefined;
  isMe: boolean;
  /** manage_members: change roles and remove others (anyone may leave). */
  canManage: boolean;
  saving: boolean;
  removing: boolean;
  onRole(role: Role): void;
  onRemove(): void;
}) {
  const { member, myRole, isMe, canManage, saving, removing, onRole, onRemove } = props;
  const id = useId();
  const [role, setRole] = useState<Role>(member.role);
  const name = memberName(member);
  // An owner row is offered every role only to owners; a non-owner cannot touch an owner's role at all (the API says so).
  const options = Array.from(new Set([member.role, ...assignableRoles(myRole)]));
  return (
    <tr>
      <th scope="row">
        {name}
        {isMe ? <span className="muted"> (you)</span> : null}
        {memberDetail(member) ? <div className="muted">{memberDetail(member)}</div> : null}
      </th>
      <td>
        {!canManage ? (
          member.role
        ) : (
          <div className="actions">
            <label htmlFor={`${id}-role`} className="visually-hidden">
              Role of {name}
            </label>
            <select id={`${id}-role`} value={role} onChange={(event) => setRole(event.target.value as Role)}>
              {options.map((option) => (
                <option key={option} value={option}>
                  {option}
                </option>
              ))}
            </select>
            {role !== member.role ? (
              <button type="button" className="button primary" disabled={saving} onClick={() => onRole(role)}>
                {saving ? 'Saving…' : `Save role of ${name}`}
              </button>
            ) : null}
          </div>
        )}
      </td>
      <td>
        <time dateTime={member.joined_at} title={formatDateTime(member.joined_at)}>
          {formatRelativeTime(member.joined_at)}
        </time>
      </td>
      <td>
        {canManage || isMe ? (
          <ConfirmButton
            label={isMe ? 'Leave' : 'Remove'}
            confirmLabel={isMe ? 'Leave the workspace' : `Remove ${name}`}
            keepLabel="Keep"
            question={isMe ? 'Leave this workspace? You lose access at once.' : `Remove ${name} from this workspace?`}
            busy={removing}
            onConfirm={onRemove}
          />
        ) : null}
      </td>
    </tr>
  );
}
