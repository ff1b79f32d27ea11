/** Indexes for sign-in's look-ups by the stored (lower-cased) username and e-mail; the unique ones are on lower(...) and serve only that expression. */
import { Migration } from '@mikro-orm/migrations';

export class IdentityEmbedded0004UserLookupIndexes extends Migration {
  override name = 'identity-embedded-0004-user-lookup-indexes';

  override up(): void {
    this.addSql(`create index idp_users_username on idp_users (realm, username)`);
    this.addSql(`create index idp_users_email on idp_users (realm, email) where email is not null`);
  }
}
