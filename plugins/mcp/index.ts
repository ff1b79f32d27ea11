/**
 * The built-in `mcp` plugin: the MCP endpoint POST /api/mcp (streamable HTTP, stateless) over the service's own REST
 * API, and the pieces the stdio program (`loadplane mcp`) builds the same server from. Guide: docs/mcp.md.
 */
import {
  createOutboundUrlGuard,
  databasePort,
  definePlugin,
  dnsResolverPort,
  envVarMaskerPort,
  httpRoutesCapability,
  loadToolCapability,
  outboundFetchPort,
  parseAllowList,
  pinnedFetchPort,
  secretBoxPort,
  webhookTransportPort,
} from 'loadplane/plugin';
import { assistantRoutes } from './assistant/routes.ts';
import { createAssistantSettings } from './assistant/settings.ts';
import { McpConfigSchema } from './config.ts';
import { mcpHttpRoutes } from './http-endpoint.ts';
import { Mcp0001AssistantSettings } from './migrations/0001-assistant-settings.ts';
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
  migrations: [Mcp0001AssistantSettings],
  setup(ctx) {
    // Read at call time: plugins set up after this one (third-party tools) are registered by then.
    const validateScript = loadToolValidator(async () => ctx.use(loadToolCapability), 'service');
    const outboundFetch = ctx.use(outboundFetchPort);
    const mcp = mcpHttpRoutes({
      publicUrl: ctx.config.publicUrl,
      maxBodyBytes: ctx.config.maxBodyBytes,
      version: ctx.config.version,
      // Requests to our own origin are answered in process (the host's outbound fetch routes them to the app).
      fetch: outboundFetch,
      validateScript,
      logger: ctx.logger,
    });
    // ASK AI (docs/ask-ai.md): the same tools and REST client for the UI's assistant, against an OpenAI-compatible model.
    const masker = ctx.use(envVarMaskerPort);
    const assistant = assistantRoutes({
      publicUrl: ctx.config.publicUrl,
      maxBodyBytes: ctx.config.maxBodyBytes,
      fetch: outboundFetch,
      settings: createAssistantSettings({ db: ctx.use(databasePort), secrets: ctx.use(secretBoxPort), service: ctx.config.ai }),
      guard: createOutboundUrlGuard({ resolver: ctx.use(dnsResolverPort), allow: parseAllowList(ctx.config.allowHosts) }),
      // Streamed from the model as it answers where the host has the pinned fetch; read whole through the webhook transport otherwise.
      model: {
        ...(ctx.has(pinnedFetchPort) ? { pinnedFetch: ctx.use(pinnedFetchPort) } : {}),
        transport: ctx.use(webhookTransportPort),
        timeoutMillis: 120_000,
        maxResponseBytes: 2 * 1024 * 1024,
      },
      maskerFor: (workspaceId) => masker.maskerFor(workspaceId),
      validateScript,
      logger: ctx.logger,
    });
    ctx.provide(httpRoutesCapability, { name: 'mcp', routes: mcp.use(assistant) });
  },
});
