/** Generated service secrets (realm signing key, client secret) kept in the database, so every replica uses the same ones. */
import { Migration } from '@mikro-orm/migrations';

export class Migration0005ServiceSecrets extends Migration {
  override name = 'core-0005-service-secrets';

  override up(): void {
    this.addSql(`create table service_secrets (
      name varchar(100) primary key,
      value text not null,
      created_at timestamptz not null default now()
    )`);
  }
}
