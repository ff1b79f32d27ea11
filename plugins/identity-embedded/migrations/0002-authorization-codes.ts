/** Authorization codes of the browser sign-in (authorization_code grant with PKCE); they go with their session. */
import { Migration } from '@mikro-orm/migrations';

export class IdentityEmbedded0002AuthorizationCodes extends Migration {
  override name = 'identity-embedded-0002-authorization-codes';

  override up(): void {
    this.addSql(`create table idp_authorization_codes (
      code_hash varchar(64) primary key,
      realm varchar(255) not null,
      session_id uuid not null references idp_sessions (id) on delete cascade,
      user_id uuid not null references idp_users (id) on delete cascade,
      client_id varchar(255) not null,
      redirect_uri text not null,
      code_challenge varchar(128) not null,
      nonce text,
      scope varchar(1000) not null,
      created_at timestamptz not null,
      expires_at timestamptz not null,
      consumed_at timestamptz
    )`);
    this.addSql(`create index idp_authorization_codes_expires on idp_authorization_codes (expires_at)`);
  }
}
