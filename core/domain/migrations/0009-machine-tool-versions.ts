/** The versions of the load tools an agent found on its machine, shown by GET /machines beside the tools. */
import { Migration } from '@mikro-orm/migrations';

export class Migration0009MachineToolVersions extends Migration {
  override name = 'core-0009-machine-tool-versions';

  override up(): void {
    this.addSql(`alter table machines add column tool_versions jsonb not null default '{}'::jsonb`);
  }
}
