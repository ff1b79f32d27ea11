/**
 * Failures of one name from one address (kind `address-account`): the per-address limit throttles only the names that
 * failed from the address, so a guesser there cannot lock everyone else out. Its subject is the address and the
 * account's subject, hence the longer column.
 */
import { Migration } from '@mikro-orm/migrations';

export class IdentityEmbedded0005AddressAccountFailures extends Migration {
  override name = 'identity-embedded-0005-address-account-failures';

  override up(): void {
    // PostgreSQL named 0003's inline check after its table and column; no `if exists`: a miss must stop the upgrade.
    this.addSql(`alter table idp_login_failures drop constraint idp_login_failures_kind_check`);
    this.addSql(`alter table idp_login_failures add constraint idp_login_failures_kind_check
      check (kind in ('account', 'address', 'address-account'))`);
    // An address key (at most 64) + a space + an account subject (at most `name:` + 300).
    this.addSql(`alter table idp_login_failures alter column subject type varchar(400)`);
  }
}
