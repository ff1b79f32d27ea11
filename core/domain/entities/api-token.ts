/** A personal API token: acts as its creator in one workspace; only the SHA-256 of the secret is stored. */
import { defineEntity, type InferEntity, p } from '@mikro-orm/core';

export const ApiToken = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: p.uuid().primary(),
    workspaceId: p.uuid(),
    userId: p.uuid(),
    name: p.string(),
    scopes: p.json<string[]>(),
    /** Hex SHA-256 of the full plaintext token; the plaintext is never stored. */
    secretHash: p.string().unique(),
    /** The first characters of the secret, so people can tell their tokens apart. */
    secretHint: p.string(),
    expiresAt: p.datetime().nullable(),
    lastUsedAt: p.datetime().nullable(),
    revokedAt: p.datetime().nullable(),
    createdAt: p.datetime(),
    rotatedAt: p.datetime().nullable(),
  },
});
export type ApiToken = InferEntity<typeof ApiToken>;
