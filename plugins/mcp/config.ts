/** The mcp plugin's configuration slice (TypeBox), validated by the kernel at boot; the composition root fills it. */
import { type Static, Type } from '@sinclair/typebox';

export const McpConfigSchema = Type.Object({
  /** PUBLIC_URL: the site address. Tools reach the REST API under it (in process) and hand out stream URLs on it. */
  publicUrl: Type.String({ pattern: '^https?://[^/]+$' }),
  /** MAX_BODY_BYTES: the bound of a POST /api/mcp body, as of every other route's. */
  maxBodyBytes: Type.Integer({ minimum: 1024, default: 1_048_576 }),
  /** The service's version, named to clients in the MCP handshake. */
  version: Type.String({ default: '0.0.0' }),
});

export type McpConfig = Static<typeof McpConfigSchema>;
