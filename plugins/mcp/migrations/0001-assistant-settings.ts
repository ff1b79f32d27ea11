/** ASK AI's per-workspace model settings: the endpoint, the model and its API key (sealed with SECRET_KEY). */
import { Migration } from '@mikro-orm/migrations';

export class Mcp0001AssistantSettings extends Migration {
  override name = 'mcp-0001-assistant-settings';

  override up(): void {
    this.addSql(`create table assistant_settings (
      workspace_id uuid primary key references workspaces (id) on delete cascade,
      api_url text,
      model text,
      api_key_sealed text,
      enabled boolean not null default true,
      updated_by text,
      updated_at timestamptz not null
    )`);
  }
}
