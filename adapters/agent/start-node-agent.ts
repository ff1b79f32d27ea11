/** Starts an agent on this machine with Bun's WebSocket client and the node process runner; shared by `npm run agent` and the local agent. */
import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { type AgentSocket, type RunningAgent, type SystemInfo, startAgent } from '../../core/agent/agent.ts';
import { loadToolCapability } from '../../core/capabilities/load-tool.ts';
import { createKernel } from '../../core/kernel/create-kernel.ts';
import { programLookupPort } from '../../core/ports/program-lookup.ts';
import { loadPlugins } from '../../core/kernel/load-plugins.ts';
import type { Logger } from '../../core/kernel/logger.ts';
import { builtinPlugins } from '../../plugins/builtin.ts';
import { createNodeProcessRunner } from '../process/node-process-runner.ts';
import { detectSystem } from './system-info.ts';

export const agentVersion = '0.1.0';
export const loadToolPlugins = ['load-tool-custom', 'load-tool-k6'];

/** k6: K6_BIN, then PATH, then the binary .ci/install-k6.sh caches. */
export function resolveK6Binary(env: Record<string, string | undefined> = process.env): string {
  if (env.K6_BIN) return env.K6_BIN;
  for (const dir of (env.PATH ?? '').split(':')) if (dir && existsSync(join(dir, 'k6'))) return join(dir, 'k6');
  const cached = join(homedir(), '.cache/loadplane/bin/k6');
  return existsSync(cached) ? cached : 'k6';
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
}): Promise<RunningAgent & { shutdown(): Promise<void> }> {
  const plugins = await loadPlugins(loadToolPlugins, builtinPlugins);
  const runner = createNodeProcessRunner();
  const kernel = await createKernel({
    plugins,
    logger: options.logger,
    // Tools look their programs up on this machine's PATH, so an agent only offers what it can run.
    provided: [[programLookupPort, runner.which]],
    pluginConfig: { 'load-tool-k6': { binary: resolveK6Binary() } },
  });
  const tools = new Map<string, ReturnType<typeof kernel.getAll<never>>[number]>();
  for (const tool of kernel.getAll(loadToolCapability)) {
    const available = await tool.available();
    if (available.ok) tools.set(tool.tool, tool as never);
    else options.logger.warn('load tool unavailable on this machine', { tool: tool.tool, reason: available.reason });
  }
  const agent = startAgent({
    serverUrl: options.serverUrl,
    token: options.token,
    system: detectSystem(options.system),
    version: agentVersion,
    tools: tools as never,
    runner,
    baseEnv: { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: process.env.HOME ?? '/tmp', LANG: 'C.UTF-8' },
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
    },
  };
}
