/**
 * AGENT_TOKEN_FILE: the token an agent beside the service reads (compose's `agent` service, through a shared volume), an
 * API token of the first workspace's `bootstrap agent` account. The file's token is kept while it is live, so restarts
 * and replicas leave a connected agent alone; a file without one (first start, deleted to rotate it, revoked) gets a
 * new token, and the account's older tokens are revoked, so it has one live token: the file's.
 */
import { hashApiToken } from '../../domain/api-token-format.ts';
import type { Database } from '../../ports/database.ts';
import { transaction } from '../sql.ts';
import { createAgentToken, ensureServiceAccount } from './service-account.ts';

/** Where the token lives; the runtime's adapter writes it whole (never half a token) and readable by its owner only. */
export interface AgentTokenFile {
  /** The file's text, or null when there is no file. */
  read(): Promise<string | null>;
  write(token: string): Promise<void>;
}

export const bootstrapAgentAccount = { subject: 'loadplane:bootstrap-agent', name: 'Bootstrap agent', username: 'bootstrap-agent' };

export async function keepBootstrapAgentToken(db: Database, workspaceId: string, file: AgentTokenFile): Promise<'kept' | 'written'> {
  const userId = await ensureServiceAccount(db, workspaceId, bootstrapAgentAccount);
  return transaction(db, async (tx) => {
    // Replicas booting at once share the file: the account's row serialises them, so one writes and the others keep it.
    await tx.all('select id from user_profiles where id = ? for update', [userId]);
    const current = (await file.read())?.split('\n')[0]?.trim() ?? '';
    if (current) {
      const live = await tx.all(
        'select id from api_tokens where secret_hash = ? and user_id = ? and workspace_id = ? and revoked_at is null and (expires_at is null or expires_at > now())',
        [await hashApiToken(current), userId, workspaceId],
      );
      if (live.length > 0) return 'kept';
    }
    await tx.all('update api_tokens set revoked_at = now() where user_id = ? and revoked_at is null', [userId]);
    const plaintext = await createAgentToken(tx.em, workspaceId, userId, 'bootstrap agent');
    await tx.em.flush();
    // Inside the transaction: a file that cannot be written leaves no token behind; a commit that fails after the
    // write leaves a token the next start finds dead and replaces.
    await file.write(plaintext);
    return 'written';
  });
}
