/**
 * Why a pending task waits: `tasks.pending_reason` (null once it runs), and what an agent said about the tools it does
 * not offer (`machines.tool_problems`, tool id -> why, with the way to install it), which the reason quotes.
 */
import { Migration } from '@mikro-orm/migrations';

export class Migration0013PendingReasons extends Migration {
  override name = 'core-0013-pending-reasons';

  override up(): void {
    this.addSql(`alter table tasks add column pending_reason text`);
    this.addSql(`alter table machines add column tool_problems jsonb not null default '{}'::jsonb`);
  }
}
