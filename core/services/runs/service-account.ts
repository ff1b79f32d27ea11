/** A service account: a user profile no person signs in as, admin of one workspace, whose API tokens the service's own agents use. */
import { generateApiToken, hashApiToken, tokenHint } from '../../domain/api-token-format.ts';
import { ApiToken } from '../../domain/entities/api-token.ts';
import { Membership } from '../../domain/entities/membership.ts';
import { UserProfile } from '../../domain/entities/user-profile.ts';
import type { Database } from '../../ports/database.ts';

type EntityManagerLike = Pick<ReturnType<Database['fork']>, 'create'>;
import { isUniqueViolation } from '../sql.ts';

export interface ServiceAccount {
  /** The profile's `subject`: `loadplane:...`, a name no identity provider issues. */
  subject: string;
  name: string;
  username: string;
}

/** The account's profile id, made (with its admin membership of `workspaceId`) the first time; replicas booting at once make it once. */
export async function ensureServiceAccount(db: Database, workspaceId: string, account: ServiceAccount): Promise<string> {
  const em = db.fork();
  let profile = await em.findOne(UserProfile, { subject: account.subject });
  if (!profile) {
    try {
      profile = em.create(UserProfile, {
        id: crypto.randomUUID(),
        subject: account.subject,
        email: null,
        name: account.name,
        username: account.username,
        realmRoles: [],
        createdAt: new Date(),
        updatedAt: new Date(),
      });
      await em.flush();
    } catch (error) {
      // Another replica made it first.
      if (!isUniqueViolation(error)) throw error;
      profile = await db.fork().findOneOrFail(UserProfile, { subject: account.subject });
    }
  }
  const userId = profile.id;
  if (!(await db.fork().findOne(Membership, { workspaceId, userId }))) {
    const members = db.fork();
    members.create(Membership, { id: crypto.randomUUID(), workspaceId, userId, role: 'admin', createdAt: new Date() });
    try {
      await members.flush();
    } catch (error) {
      if (!isUniqueViolation(error)) throw error;
    }
  }
  return userId;
}

/**
 * A new token of the account for an agent (scopes `machines:write` and `runs:write`, no expiry), created in `em` (flushed
 * by the caller's transaction or flush); the plaintext is returned once and stored only as its hash.
 */
export async function createAgentToken(em: EntityManagerLike, workspaceId: string, userId: string, name: string): Promise<string> {
  const plaintext = generateApiToken();
  em.create(ApiToken, {
    id: crypto.randomUUID(),
    workspaceId,
    userId,
    name,
    scopes: ['machines:write', 'runs:write'],
    secretHash: await hashApiToken(plaintext),
    secretHint: tokenHint(plaintext),
    expiresAt: null,
    lastUsedAt: null,
    revokedAt: null,
    createdAt: new Date(),
    rotatedAt: null,
  });
  return plaintext;
}
