/** The embedded mode's local agent acts through a service account of the first workspace with a fresh, narrowly scoped token per boot. */
import { ApiToken } from '../../domain/entities/api-token.ts';
import type { Database } from '../../ports/database.ts';
import { createAgentToken, ensureServiceAccount } from './service-account.ts';

export async function provisionLocalAgentToken(db: Database, workspaceId: string): Promise<string> {
  const userId = await ensureServiceAccount(db, workspaceId, { subject: 'loadplane:local-agent', name: 'Local agent', username: 'local-agent' });
  const em = db.fork();
  // Last boot's token is of no use to anyone now.
  await em.nativeUpdate(ApiToken, { userId, revokedAt: null }, { revokedAt: new Date() });
  const plaintext = await createAgentToken(em, workspaceId, userId, 'local agent');
  await em.flush();
  return plaintext;
}
