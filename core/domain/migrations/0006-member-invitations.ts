/** Invitations a user accepts before they join a workspace, and whether the identity provider verified a profile's e-mail. */
import { Migration } from '@mikro-orm/migrations';

export class Migration0006MemberInvitations extends Migration {
  override name = 'core-0006-member-invitations';

  override up(): void {
    // Only an e-mail the provider vouches for (`email_verified`) may be used to find someone to invite.
    this.addSql(`alter table user_profiles add column email_verified boolean not null default false`);
    // Exact, case-insensitive matches of an invitation's handle; no pattern search exists any more.
    this.addSql(`create index user_profiles_lower_username on user_profiles (lower(username))`);
    this.addSql(`create index user_profiles_lower_email on user_profiles (lower(email)) where email_verified`);
    this.addSql(`create table member_invitations (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      user_id uuid not null references user_profiles (id) on delete cascade,
      role varchar(20) not null check (role in ('owner', 'admin', 'member', 'viewer')),
      invited_as varchar(320) not null,
      invited_by uuid references user_profiles (id) on delete set null,
      created_at timestamptz not null,
      unique (workspace_id, user_id)
    )`);
    this.addSql(`create index member_invitations_user on member_invitations (user_id, created_at)`);
  }
}
