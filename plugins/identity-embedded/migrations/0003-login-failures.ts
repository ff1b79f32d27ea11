/** Brute-force detection state in the database, so every replica counts the same failures and honours the same lockouts. */
import { Migration } from '@mikro-orm/migrations';

export class IdentityEmbedded0003LoginFailures extends Migration {
  override name = 'identity-embedded-0003-login-failures';

  override up(): void {
    this.addSql(`create table idp_login_failures (
      realm varchar(255) not null,
      kind varchar(16) not null check (kind in ('account', 'address')),
      subject varchar(320) not null,
      user_id uuid references idp_users (id) on delete cascade,
      num_failures integer not null,
      last_failure timestamptz not null,
      not_before timestamptz,
      locked_permanently boolean not null default false,
      last_address varchar(64),
      primary key (realm, kind, subject)
    )`);
    this.addSql(`create index idp_login_failures_user on idp_login_failures (user_id) where user_id is not null`);
    // Serves the sweep of rows whose count has lapsed.
    this.addSql(`create index idp_login_failures_last on idp_login_failures (last_failure)`);
  }
}
