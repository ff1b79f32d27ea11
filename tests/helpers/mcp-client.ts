/** The official MCP SDK client against Loadplane, over POST /api/mcp or a `loadplane mcp` process, and tool-call helpers. */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { repoRoot } from './service-process.ts';

export type Structured = Record<string, unknown>;

/** A client of the HTTP endpoint at `origin` with this bearer token (and any extra headers, X-Workspace-Id say). */
export async function httpClient(origin: string, token: string, headers: Record<string, string> = {}): Promise<Client> {
  const client = new Client({ name: 'loadplane-tests', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(`${origin}/api/mcp`), { requestInit: { headers: { authorization: `Bearer ${token}`, ...headers } } }));
  return client;
}

/** A client of `loadplane mcp` started by the SDK as its stdio server; its stderr is kept for failure messages. */
export async function stdioClient(serviceUrl: string, token: string): Promise<{ client: Client; stderr: () => string }> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: ['adapters/runtime/bun/loadplane.ts', 'mcp'],
    cwd: repoRoot,
    env: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', SERVICE_API_URL: serviceUrl, SERVICE_API_TOKEN: token },
    stderr: 'pipe',
  });
  let stderr = '';
  transport.stderr?.on('data', (chunk) => (stderr += String(chunk)));
  const client = new Client({ name: 'loadplane-tests', version: '1.0.0' });
  await client.connect(transport);
  return { client, stderr: () => stderr };
}

/** A tool's structured answer; a tool error fails with its text. */
export async function call(client: Client, name: string, args: Record<string, unknown> = {}): Promise<Structured> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? '').join('\n');
  if (result.isError) throw new Error(`${name} answered a tool error: ${text}`);
  // The text content is the same answer, as JSON, for clients that read no structured content.
  if (JSON.stringify(JSON.parse(text)) !== JSON.stringify(result.structuredContent)) throw new Error(`${name}: the text and structured answers differ`);
  return result.structuredContent as Structured;
}

/** A tool error's `{error, message, status}`; an answer that is not an error fails. */
export async function callError(client: Client, name: string, args: Record<string, unknown> = {}): Promise<{ error: string; message: string; status: number }> {
  const result = await client.callTool({ name, arguments: args });
  const text = (result.content as { text?: string }[])[0]?.text ?? '';
  if (!result.isError) throw new Error(`${name} was expected to fail, but answered ${text.slice(0, 500)}`);
  return JSON.parse(text) as { error: string; message: string; status: number };
}
