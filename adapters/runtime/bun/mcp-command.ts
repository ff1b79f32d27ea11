/**
 * `loadplane mcp` (and `npm run --silent mcp`): the MCP server over stdio, the same tools as POST /api/mcp, calling
 * the service's REST API over the network with the caller's API token. stdout carries the protocol and nothing else;
 * every log line goes to stderr.
 */
import { parseArgs } from 'node:util';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serviceVersion } from '../../../core/boot-service.ts';
import { loadToolCapability } from '../../../core/capabilities/load-tool.ts';
import { createConsoleLogger, type LogLevel } from '../../../core/kernel/console-logger.ts';
import { createKernel } from '../../../core/kernel/create-kernel.ts';
import { silentLogger } from '../../../core/kernel/logger.ts';
import { createMcpServer, createRestClient, loadToolValidator, RestError, serviceAddress } from '../../../plugins/mcp/index.ts';
import { builtinPluginNames, loadPluginsByName } from '../../composition/plugins.ts';
import { readTokenFile, UsageError } from './cli-connection.ts';

export const mcpUsage = `usage: loadplane mcp [--server URL] [--token-file FILE]
  (in the repository: npm run --silent mcp)

The MCP server over stdio, for an AI client that starts it (Claude Desktop, Cursor, VS Code): its tools read the
workspace, write tests and configurations, and start, follow and cancel runs, with the token's rights. Guide:
docs/mcp.md.

  SERVICE_API_URL    the workspace address, e.g. https://loadplane.example.com (with or without /api/v1); or --server
  SERVICE_API_TOKEN  an API token (psk_...); or --token-file FILE, a file only its owner may read

stdout carries only the protocol; logs go to stderr (LOG_LEVEL: debug, info, warn, error; default warn).`;

/** A REST call that hangs (a dead network path) fails after this, as a tool error, instead of holding the client. */
const restTimeoutMillis = 30_000;

function refuse(message: string): never {
  console.error(`loadplane mcp: ${message}\n\n${mcpUsage}`);
  process.exit(2);
}

/** The built-in load tools of this program, set up once on first use: validate_test checks scripts with them. */
function localLoadTools() {
  let tools: Promise<readonly { tool: string; validateScript(script: string): string | null }[]> | null = null;
  return () =>
    (tools ??= (async () => {
      const plugins = await loadPluginsByName(builtinPluginNames('agent'));
      // No engine locator here: the tools only validate, as on the server, which runs no engine either.
      const kernel = await createKernel({ plugins, logger: silentLogger });
      return kernel.getAll(loadToolCapability);
    })());
}

export async function runMcpCommand(argv: readonly string[], env: Record<string, string | undefined>): Promise<void> {
  let values;
  try {
    ({ values } = parseArgs({
      args: [...argv],
      options: { server: { type: 'string' }, 'token-file': { type: 'string' }, help: { type: 'boolean', short: 'h' } },
      strict: true,
    }));
  } catch (error) {
    refuse((error as Error).message);
  }
  if (values.help) {
    // Asked for by a person at a terminal, not by an MCP client: the one time stdout carries anything else.
    console.log(mcpUsage);
    return;
  }
  const url = (values.server ?? env.SERVICE_API_URL ?? '').trim();
  if (!url) refuse('no service address: set SERVICE_API_URL (or pass --server URL)');
  let token: string;
  try {
    token = values['token-file'] !== undefined ? readTokenFile(values['token-file']) : (env.SERVICE_API_TOKEN ?? '').trim();
  } catch (error) {
    if (error instanceof UsageError) refuse(error.message);
    throw error;
  }
  if (!token) refuse('no token: set SERVICE_API_TOKEN (or pass --token-file FILE, mode 600)');
  let address;
  try {
    address = serviceAddress(url);
  } catch (error) {
    refuse(`SERVICE_API_URL: ${(error as Error).message}`);
  }

  const level = (['debug', 'info', 'warn', 'error'] as const).find((each) => each === env.LOG_LEVEL) ?? ('warn' satisfies LogLevel);
  const logger = createConsoleLogger(level, { component: 'mcp' }, env.LOG_FORMAT === 'pretty' ? 'pretty' : 'json');
  const rest = createRestClient({ address, token, fetch: (request) => fetch(request), timeoutMs: restTimeoutMillis });
  const server = createMcpServer({
    version: serviceVersion,
    context: { rest, validateScript: loadToolValidator(localLoadTools(), 'local'), logger },
  });
  const transport = new StdioServerTransport();
  await server.connect(transport);
  const drained = answersBeforeExit(transport);

  // Said once, on stderr: a wrong address or token shows before the first tool call fails with it.
  void rest.get('/auth/me').catch((error: unknown) =>
    logger.warn('the service refused the token or could not be reached; tool calls will fail until it is fixed', {
      url: address.apiUrl,
      error: error instanceof RestError ? `${error.code}: ${error.message}` : String(error),
    }),
  );

  // The client closes stdin when it is done with us: the requests it sent are answered, then we stop without a word
  // on stdout. A signal stops at once.
  const stop = async (wait: boolean) => {
    if (wait) await drained();
    await server.close().catch(() => {});
    process.exit(0);
  };
  process.stdin.once('end', () => void stop(true));
  process.once('SIGINT', () => void stop(false));
  process.once('SIGTERM', () => void stop(false));
}

type Message = { id?: string | number; method?: string; result?: unknown; error?: unknown };

/**
 * Counts the requests read and the answers written, so that a client that sends its requests and closes stdin (a
 * pipe, a script) still gets every answer: the returned function resolves once none is outstanding.
 */
function answersBeforeExit(transport: StdioServerTransport): () => Promise<void> {
  const open = new Set<string | number>();
  let idle: (() => void) | null = null;
  const received = transport.onmessage!;
  transport.onmessage = (message) => {
    const { id, method } = message as Message;
    if (id !== undefined && method !== undefined) open.add(id);
    received(message);
  };
  const send = transport.send.bind(transport);
  transport.send = async (message) => {
    await send(message);
    const { id, method } = message as Message;
    if (id !== undefined && method === undefined && open.delete(id) && open.size === 0) idle?.();
  };
  return () => (open.size === 0 ? Promise.resolve() : new Promise<void>((resolve) => (idle = resolve)));
}
