/**
 * An agent's machine key (a random identity it keeps in its state directory), stored as its SHA-256 so two agents with
 * one hostname are two machines. Null for machines registered by hand or by an agent older than keys.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0014MachineAgentKeys extends Migration {
  override name = 'core-0014-machine-agent-keys';

  override up(): void {
    this.addSql(`alter table machines add column agent_key_hash text`);
    // One machine per key in a workspace: two hellos racing with one key cannot make two rows.
    this.addSql(`create unique index machines_workspace_agent_key on machines (workspace_id, agent_key_hash) where agent_key_hash is not null`);
  }
}
