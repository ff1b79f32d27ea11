/**
 * Remote MCP servers of a workspace: a name unique in it (the prefix of the server's tools), the URL, the header names
 * in clear and their values as one JSON object sealed with SECRET_KEY.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0016McpServers extends Migration {
  override name = 'core-0016-mcp-servers';

  override up(): void {
    this.addSql(`create table mcp_servers (
      id uuid primary key,
      workspace_id uuid not null references workspaces (id) on delete cascade,
      name varchar(32) not null,
      url text not null,
      header_names jsonb not null default '[]',
      headers_box text,
      created_at timestamptz not null,
      updated_at timestamptz not null
    )`);
    this.addSql(`create unique index mcp_servers_name on mcp_servers (workspace_id, name)`);
    this.addSql(`create index mcp_servers_workspace on mcp_servers (workspace_id, created_at desc, id desc)`);
  }
}
