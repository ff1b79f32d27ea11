/** The embedded mode's local agent acts through a service account of the first workspace with a fresh, narrowly scoped token per boot. */
import { generateApiToken, hashApiToken, tokenHint } from '../../domain/api-token-format.ts';
import { ApiToken } from '../../domain/entities/api-token.ts';
import { Membership } from '../../domain/entities/membership.ts';
import { UserProfile } from '../../domain/entities/user-profile.ts';
import type { Database } from '../../ports/database.ts';

const subject = 'loadplane:local-agent';

export async function provisionLocalAgentToken(db: Database, workspaceId: string): Promise<string> {
  const em = db.fork();
  let profile = await em.findOne(UserProfile, { subject });
  if (!profile) {
    profile = em.create(UserProfile, {
      id: crypto.randomUUID(),
      subject,
      email: null,
      name: 'Local agent',
      username: 'local-agent',
      realmRoles: [],
      createdAt: new Date(),
      updatedAt: new Date(),
    });
    await em.flush();
  }
  if (!(await em.findOne(Membership, { workspaceId, userId: profile.id }))) {
    em.create(Membership, { id: crypto.randomUUID(), workspaceId, userId: profile.id, role: 'admin', createdAt: new Date() });
    await em.flush();
  }
  // Last boot's token is of no use to anyone now.
  await em.nativeUpdate(ApiToken, { userId: profile.id, revokedAt: null }, { revokedAt: new Date() });
  const plaintext = generateApiToken();
  em.create(ApiToken, {
    id: crypto.randomUUID(),
    workspaceId,
    userId: profile.id,
    name: 'local agent',
    scopes: ['machines:write', 'runs:write'],
    secretHash: await hashApiToken(plaintext),
    secretHint: tokenHint(plaintext),
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    createdAt: new Date(),
    rotatedAt: null,
  });
  await em.flush();
  return plaintext;
}
