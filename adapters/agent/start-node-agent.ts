/**
 * Starts an agent on this machine with Bun's WebSocket client and the node process runner, its tools in the tool
 * sandbox; shared by `npm run agent` and the local agent.
 */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join } from 'node:path';
import { type AgentSocket, type RunningAgent, type SystemInfo, startAgent } from '../../core/agent/agent.ts';
import { loadToolCapability } from '../../core/capabilities/load-tool.ts';
import { createKernel } from '../../core/kernel/create-kernel.ts';
import { programLookupPort } from '../../core/ports/program-lookup.ts';
import { loadPlugins } from '../../core/kernel/load-plugins.ts';
import type { Logger } from '../../core/kernel/logger.ts';
import { builtinPlugins } from '../../plugins/builtin.ts';
import { createNodeProcessRunner } from '../process/node-process-runner.ts';
import { openToolSandbox, type SandboxMode } from '../process/sandbox/open-tool-sandbox.ts';
import type { ToolSandbox } from '../process/sandbox/tool-sandbox.ts';
import { detectSystem } from './system-info.ts';
import { toolsUnderSandbox } from './sandbox-policy.ts';
import { toolBaseEnv } from './tool-env.ts';

export const agentVersion = '0.1.0';
export const loadToolPlugins = ['load-tool-custom', 'load-tool-k6'];

/** k6: K6_BIN, then PATH, then the binary .ci/install-k6.sh caches. */
export function resolveK6Binary(env: Record<string, string | undefined> = process.env): string {
  if (env.K6_BIN) return env.K6_BIN;
  for (const dir of (env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'k6'))) return join(dir, 'k6');
  const cached = join(homedir(), '.cache/loadplane/bin/k6');
  return existsSync(cached) ? cached : 'k6';
}

/** Where scripts/install-engines and .ci/install-k6.sh keep the load tools: readable inside the sandbox. */
export const enginesDir = () => join(homedir(), '.cache/loadplane');

/**
 * The runner of an agent on this machine, its tools in the sandbox `mode` asks for. Hidden from them: `hide` (the
 * local agent adds DATA_DIR), the agent's home and working directory; readable still: the engines and the k6 binary.
 * `refusal` says why no tool may run (no isolation possible here), with the way out.
 */
export async function createAgentRunner(options: { mode: SandboxMode; hide?: string[]; k6Binary: string }) {
  const opened = await openToolSandbox({
    mode: options.mode,
    hide: [...(options.hide ?? []), homedir(), process.cwd()],
    readOnly: [enginesDir(), ...(isAbsolute(options.k6Binary) ? [options.k6Binary] : [])],
  });
  const sandbox: ToolSandbox | null = opened.ok ? opened.sandbox : null;
  return { runner: createNodeProcessRunner(sandbox ? { sandbox } : {}), sandbox, refusal: opened.ok ? null : opened.reason };
}

export function bunSocket(url: string, headers: Record<string, string>): AgentSocket {
  // Bun's client accepts headers, so the token travels in Authorization, never in the URL (and its logs).
  const socket = new WebSocket(url, { headers } as unknown as string[]);
  return {
    send: (text) => socket.send(text),
    close: (code, reason) => socket.close(code, reason),
    onOpen: (handler) => socket.addEventListener('open', () => handler()),
    onMessage: (handler) => socket.addEventListener('message', (event) => handler(String(event.data))),
    onClose: (handler) => {
      socket.addEventListener('close', (event) => handler(event.code, event.reason));
      socket.addEventListener('error', () => {
        if (socket.readyState === WebSocket.CLOSED) handler(1006, 'connection failed');
      });
    },
  };
}

export async function startNodeAgent(options: {
  serverUrl: string;
  token: string;
  logger: Logger;
  system?: Partial<SystemInfo>;
  metricsIntervalMillis?: number;
  onRetired?(): void;
  /** `on` (default): tools run in the sandbox, or not at all; `off`: without isolation (AGENT_SANDBOX=off). */
  sandbox?: SandboxMode;
  /** More paths the tools must not see (the local agent: DATA_DIR). */
  hide?: string[];
}): Promise<RunningAgent & { shutdown(): Promise<void> }> {
  const plugins = await loadPlugins(loadToolPlugins, builtinPlugins);
  const k6Binary = resolveK6Binary();
  const { runner, sandbox, refusal } = await createAgentRunner({ mode: options.sandbox ?? 'on', hide: options.hide, k6Binary });
  const kernel = await createKernel({
    plugins,
    logger: options.logger,
    // Tools look their programs up on this machine's PATH, so an agent only offers what it can run.
    provided: [[programLookupPort, runner.which]],
    pluginConfig: { 'load-tool-k6': { binary: k6Binary } },
  });
  const available = new Map<string, ReturnType<typeof kernel.getAll<never>>[number]>();
  for (const tool of kernel.getAll(loadToolCapability)) {
    const check = await tool.available();
    if (check.ok) available.set(tool.tool, tool as never);
    else options.logger.warn('load tool unavailable on this machine', { tool: tool.tool, reason: check.reason });
  }
  const tools = toolsUnderSandbox(available, { sandbox, refusal }, options.logger);
  const agent = startAgent({
    serverUrl: options.serverUrl,
    token: options.token,
    system: detectSystem(options.system),
    version: agentVersion,
    tools: tools as never,
    runner,
    baseEnv: toolBaseEnv(process.env),
    logger: options.logger,
    connect: bunSocket,
    metricsIntervalMillis: options.metricsIntervalMillis,
    onRetired: options.onRetired,
  });
  return {
    ...agent,
    async shutdown() {
      await agent.stop();
      await kernel.stop();
      await sandbox?.dispose();
    },
  };
}
