/** The mcp plugin's configuration slice (TypeBox), validated by the kernel at boot; the composition root fills it. */
import { type Static, Type } from '@sinclair/typebox';

export const McpConfigSchema = Type.Object({
  /** PUBLIC_URL: the site address. Tools reach the REST API under it (in process) and hand out stream URLs on it. */
  publicUrl: Type.String({ pattern: '^https?://[^/]+$' }),
  /** MAX_BODY_BYTES: the bound of a POST /api/mcp body, as of every other route's. */
  maxBodyBytes: Type.Integer({ minimum: 1024, default: 1_048_576 }),
  /** The service's version, named to clients in the MCP handshake. */
  version: Type.String({ default: '0.0.0' }),
  /** WEBHOOK_ALLOW_HOSTS: what ASK AI's model URL may target besides public addresses (the outbound guard's list). */
  allowHosts: Type.Array(Type.String(), { default: [] }),
  /** AI_API_URL, AI_API_KEY, AI_MODEL: ASK AI's service-wide model; a workspace's admins may set their own. */
  ai: Type.Object(
    {
      apiUrl: Type.Optional(Type.String({ pattern: '^https?://' })),
      apiKey: Type.Optional(Type.String({ minLength: 1 })),
      model: Type.Optional(Type.String({ minLength: 1 })),
    },
    { default: {} },
  ),
});

export type McpConfig = Static<typeof McpConfigSchema>;
