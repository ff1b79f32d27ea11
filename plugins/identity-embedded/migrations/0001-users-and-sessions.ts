/** Embedded identity provider schema: realm users (unique username and e-mail per realm, case-insensitive) and sessions. */
import { Migration } from '@mikro-orm/migrations';

export class IdentityEmbedded0001UsersAndSessions extends Migration {
  override name = 'identity-embedded-0001-users-and-sessions';

  override up(): void {
    this.addSql(`create table idp_users (
      id uuid primary key,
      realm varchar(255) not null,
      username varchar(255) not null,
      email varchar(320),
      email_verified boolean not null default false,
      first_name varchar(255),
      last_name varchar(255),
      enabled boolean not null default true,
      realm_roles jsonb not null default '[]',
      password_hash text,
      password_temporary boolean not null default false,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    // Case-insensitive uniqueness in the database itself, so two concurrent creations cannot both win.
    this.addSql(`create unique index idp_users_realm_username on idp_users (realm, lower(username))`);
    this.addSql(`create unique index idp_users_realm_email on idp_users (realm, lower(email)) where email is not null`);
    this.addSql(`create table idp_sessions (
      id uuid primary key,
      realm varchar(255) not null,
      user_id uuid not null references idp_users (id) on delete cascade,
      client_id varchar(255) not null,
      scope varchar(1000) not null,
      created_at timestamptz not null,
      refreshed_at timestamptz not null,
      expires_at timestamptz not null
    )`);
    this.addSql(`create index idp_sessions_user on idp_sessions (user_id)`);
    // Serves the sweep of expired sessions.
    this.addSql(`create index idp_sessions_expires on idp_sessions (expires_at)`);
  }
}
