/**
 * The built-in `mcp` plugin: the MCP endpoint POST /api/mcp (streamable HTTP, stateless) over the service's own REST
 * API, and the pieces the stdio program (`loadplane mcp`) builds the same server from. Guide: docs/mcp.md.
 */
import { definePlugin, httpRoutesCapability, loadToolCapability, outboundFetchPort } from 'loadplane/plugin';
import { McpConfigSchema } from './config.ts';
import { mcpHttpRoutes } from './http-endpoint.ts';
import { loadToolValidator } from './script-validator.ts';

export { type McpConfig, McpConfigSchema } from './config.ts';
export { mcpPath } from './http-endpoint.ts';
export { createMcpServer, type McpServerOptions } from './mcp-server.ts';
export { createRestClient, type Fetch, RestError, type RestClient, serviceAddress } from './rest-client.ts';
export { loadToolValidator, type ScriptValidator, type ScriptVerdict } from './script-validator.ts';
export { type ScriptFormat, scriptFormats } from './script-formats.ts';
export { stepsScript } from './steps-script.ts';
export { mcpTools } from './tool-list.ts';

export default definePlugin({
  name: 'mcp',
  configSchema: McpConfigSchema,
  setup(ctx) {
    const routes = mcpHttpRoutes({
      publicUrl: ctx.config.publicUrl,
      maxBodyBytes: ctx.config.maxBodyBytes,
      version: ctx.config.version,
      // Requests to our own origin are answered in process (the host's outbound fetch routes them to the app).
      fetch: ctx.use(outboundFetchPort),
      // Read at call time: plugins set up after this one (third-party tools) are registered by then.
      validateScript: loadToolValidator(async () => ctx.use(loadToolCapability), 'service'),
      logger: ctx.logger,
    });
    ctx.provide(httpRoutesCapability, { name: 'mcp', routes });
  },
});
