/**
 * Starts an agent on this machine with Bun's WebSocket client and the node process runner, its tools in the tool
 * sandbox; shared by `npm run agent` and the local agent. The load-tool plugins come from the composition root; their
 * engines are found through the engine locator, from what each plugin declares.
 */
import { homedir } from 'node:os';
import { type AgentSocket, type RunningAgent, type SystemInfo, startAgent } from '../../core/agent/agent.ts';
import { type LoadTool, loadToolCapability } from '../../core/capabilities/load-tool.ts';
import { specTools } from '../../core/domain/test-rules.ts';
import { createKernel, type Kernel } from '../../core/kernel/create-kernel.ts';
import type { PluginDefinition } from '../../core/kernel/define-plugin.ts';
import type { Logger } from '../../core/kernel/logger.ts';
import { engineLocatorPort } from '../../core/ports/engine-locator.ts';
import { moduleRuntimePort } from '../../core/ports/module-runtime.ts';
import type { ProcessRunner } from '../../core/ports/process-runner.ts';
import { programLookupPort } from '../../core/ports/program-lookup.ts';
import { createNodeProcessRunner } from '../process/node-process-runner.ts';
import { openToolSandbox, type SandboxMode } from '../process/sandbox/open-tool-sandbox.ts';
import type { ToolSandbox } from '../process/sandbox/tool-sandbox.ts';
import { createEngineLocator, createPathLookup, enginesDir } from './engine-locator.ts';
import { createModuleRuntime } from './module-runtime.ts';
import { detectSystem } from './system-info.ts';
import { toolsUnderSandbox } from './sandbox-policy.ts';
import { describeSocketFailure } from './socket-failure.ts';
import { toolBaseEnv } from './tool-env.ts';
import type { AgentIdentity } from './agent-state.ts';
import { watchForNewTools } from './tool-redetection.ts';
import { startLoopbackTarget } from './loopback-target.ts';
import type { CalibrationSettings } from '../../core/agent/calibration.ts';

export const agentVersion = '0.1.0';
export { enginesDir };

/**
 * The runner of an agent on this machine, its tools in the sandbox `mode` asks for. Hidden from them: `hide` (the
 * local agent adds DATA_DIR), the agent's home and working directory; readable still: the engines directory and the
 * engines found elsewhere (`engines`: their binaries, and the runtime and folders of engines plugins ship as modules).
 * `refusal` says why no tool may run (no isolation possible here), with the way out.
 */
export async function createAgentRunner(options: { mode: SandboxMode; hide?: string[]; engines?: readonly string[] }) {
  const opened = await openToolSandbox({
    mode: options.mode,
    hide: [...(options.hide ?? []), homedir(), process.cwd()],
    readOnly: [enginesDir(), ...(options.engines ?? [])],
  });
  const sandbox: ToolSandbox | null = opened.ok ? opened.sandbox : null;
  return { runner: createNodeProcessRunner(sandbox ? { sandbox } : {}), sandbox, refusal: opened.ok ? null : opened.reason };
}

/** One load tool as this agent sees it: what `npm run agent` prints and GET /machines shows. */
export interface ToolReport {
  tool: string;
  /** Its engine was found (or it needs none). */
  found: boolean;
  /** The engine's version, when known. */
  version: string | null;
  /** Why it is missing, with the install command; or `no plugin` for a spec tool no loaded plugin provides. */
  reason: string | null;
  /** Offered to the server: found, and allowed by the sandbox policy. */
  offered: boolean;
}

export interface AgentHost {
  kernel: Kernel;
  /** The tools this agent offers: found here and allowed by the sandbox policy. */
  tools: Map<string, LoadTool>;
  /** Their engines' versions (tool id -> version), for the machine record. */
  toolVersions: Record<string, string>;
  /** Every tool of the loaded plugins, and every spec tool without one, sorted by id. */
  report: ToolReport[];
  runner: ProcessRunner;
  sandbox: ToolSandbox | null;
  /** An engine or program its plugins did not find is there now (file checks only): time to set a host up again. */
  foundSince(): boolean;
  dispose(): Promise<void>;
}

/**
 * The agent's host: the load-tool plugins set up with this machine's program lookup and engine locator, the sandbox
 * (which must let the tools read the engines found), and what each tool found. Shared by the agent and its benchmarks.
 */
export async function prepareAgentHost(options: {
  plugins: readonly PluginDefinition[];
  /** Their config slices by plugin name, checked (the composition root's `operatorPluginConfig('agent', ...)`). */
  pluginConfig?: Readonly<Record<string, Record<string, unknown>>>;
  logger: Logger;
  sandbox?: SandboxMode;
  hide?: string[];
  env?: Record<string, string | undefined>;
}): Promise<AgentHost> {
  const env = options.env ?? process.env;
  const locator = createEngineLocator({ env });
  const lookup = createPathLookup(env.PATH ?? '');
  const moduleRuntime = createModuleRuntime();
  const kernel = await createKernel({
    plugins: options.plugins,
    logger: options.logger,
    // The operator's settings: a tool's `binary`, say, is what this agent runs.
    pluginConfig: options.pluginConfig,
    // Tools look their programs up on this machine, so an agent only offers what it can run.
    provided: [
      [programLookupPort, lookup],
      [engineLocatorPort, locator],
      // Engines that plugins ship as modules (the http tool's) run with this agent's own runtime.
      [moduleRuntimePort, moduleRuntime],
    ],
  });
  try {
    const { runner, sandbox, refusal } = await createAgentRunner({ mode: options.sandbox ?? 'on', hide: options.hide, engines: [...locator.found(), ...moduleRuntime.readable()] });
    const checked: { tool: LoadTool; check: Awaited<ReturnType<LoadTool['available']>> }[] = [];
    for (const tool of kernel.getAll(loadToolCapability)) checked.push({ tool, check: await tool.available() });
    const available = new Map(checked.filter((entry) => entry.check.ok).map((entry) => [entry.tool.tool, entry.tool]));
    const tools = toolsUnderSandbox(available, { sandbox, refusal }, options.logger);
    const toolVersions: Record<string, string> = {};
    const report: ToolReport[] = checked.map(({ tool, check }) => {
      const version = check.ok ? (check.version ?? null) : null;
      if (version && tools.has(tool.tool)) toolVersions[tool.tool] = version;
      return { tool: tool.tool, found: check.ok, version, reason: check.ok ? null : check.reason, offered: tools.has(tool.tool) };
    });
    for (const tool of specTools) {
      if (!report.some((entry) => entry.tool === tool)) report.push({ tool, found: false, version: null, reason: 'no plugin for it on this agent', offered: false });
    }
    report.sort((a, b) => a.tool.localeCompare(b.tool));
    for (const entry of report) {
      if (entry.found) options.logger.info('load tool found', { tool: entry.tool, version: entry.version, offered: entry.offered });
      else if (!checked.some((c) => c.tool.tool === entry.tool)) options.logger.info('load tool without a plugin here', { tool: entry.tool });
      else options.logger.warn('load tool missing', { tool: entry.tool, reason: entry.reason });
    }
    return {
      kernel,
      tools,
      toolVersions,
      report,
      runner,
      sandbox,
      foundSince: () => locator.foundSince() || lookup.foundSince(),
      async dispose() {
        await kernel.stop();
        await sandbox?.dispose();
      },
    };
  } catch (error) {
    await kernel.stop();
    throw error;
  }
}

/** The tool report as a few plain lines for a person at the terminal: found with versions, missing with the way to install. */
export function formatToolReport(report: readonly ToolReport[]): string {
  const width = Math.max(...report.map((entry) => entry.tool.length), 4);
  const lines = report.map((entry) => {
    const name = entry.tool.padEnd(width);
    if (entry.found) return `  ${name}  ${entry.version ?? 'ready'}${entry.offered ? '' : '  (not offered: runs cannot be isolated here)'}`;
    return `  ${name}  missing: ${entry.reason}`;
  });
  return ['load tools on this machine:', ...lines].join('\n');
}

/** What `hello` tells the server of the tools this agent does not offer: why, in the report's words (at most 1,000 characters each). */
export function toolProblemsOf(report: readonly ToolReport[]): Record<string, string> {
  const problems: Record<string, string> = {};
  for (const entry of report.filter((e) => !e.offered).slice(0, 50)) {
    const why = entry.reason ?? (entry.found ? `${entry.tool} is installed but not offered: runs cannot be isolated on this machine (see the agent's log)` : 'not found');
    problems[entry.tool] = why.length > 1000 ? `${why.slice(0, 999)}…` : why;
  }
  return problems;
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
      // The error event (which comes first) is the only one that says why a socket never opened; once closed, one report.
      let failure = '';
      let reported = false;
      const report = (code: number, reason: string) => {
        if (reported) return;
        reported = true;
        handler(code, reason || failure);
      };
      socket.addEventListener('close', (event) => report(event.code, event.reason));
      socket.addEventListener('error', (event) => {
        failure = describeSocketFailure((event as ErrorEvent).message ?? '');
        if (socket.readyState === WebSocket.CLOSED) report(1006, '');
      });
    },
  };
}

export async function startNodeAgent(options: {
  serverUrl: string;
  token: string;
  logger: Logger;
  /** The load-tool plugins (the composition root's `loadAgentPlugins`: the built-in tools plus `--plugins`). */
  plugins: readonly PluginDefinition[];
  /** Their config slices (LOADPLANE_PLUGIN_* and LOADPLANE_CONFIG, as the composition root resolved them). */
  pluginConfig?: Readonly<Record<string, Record<string, unknown>>>;
  system?: Partial<SystemInfo>;
  metricsIntervalMillis?: number;
  onRetired?(): void;
  /** `on` (default): tools run in the sandbox, or not at all; `off`: without isolation (AGENT_SANDBOX=off). */
  sandbox?: SandboxMode;
  /** More paths the tools must not see (the local agent: DATA_DIR). */
  hide?: string[];
  /** Called once the tools are checked, before the agent connects (`npm run agent` prints the report), and again when they change. */
  onToolReport?(report: readonly ToolReport[]): void;
  /** The agent's machine key from its state directory (agent-state.ts); without it, the machine is its hostname's. */
  identity?: Pick<AgentIdentity, 'machineKey' | 'renewMachineKey'>;
  /** How to choose the hostname, for the line saying another agent's machine has this one (`start it with --hostname NAME`). */
  hostnameHint?: string;
  /** How often to look for engines installed since the start (tool-redetection.ts); default 10 s, 0: never. */
  redetectMillis?: number;
  /**
   * Calibrate the machine's capacity at registration and when the service asks (default: on, with the core's VUs and
   * duration); false: never (`--no-calibration`, AGENT_CALIBRATION=false).
   */
  calibration?: false | Partial<CalibrationSettings>;
}): Promise<RunningAgent & { shutdown(): Promise<void>; readonly report: readonly ToolReport[] }> {
  const hostOptions = { plugins: options.plugins, pluginConfig: options.pluginConfig, logger: options.logger, sandbox: options.sandbox, hide: options.hide };
  const host = await prepareAgentHost(hostOptions);
  options.onToolReport?.(host.report);
  const agent = startAgent({
    serverUrl: options.serverUrl,
    token: options.token,
    system: detectSystem(options.system),
    version: agentVersion,
    tools: host.tools,
    toolVersions: host.toolVersions,
    toolProblems: toolProblemsOf(host.report),
    runner: host.runner,
    baseEnv: toolBaseEnv(process.env),
    logger: options.logger,
    connect: bunSocket,
    metricsIntervalMillis: options.metricsIntervalMillis,
    onRetired: options.onRetired,
    ...(options.identity ? { machineKey: options.identity.machineKey, renewMachineKey: () => options.identity!.renewMachineKey() } : {}),
    hostnameHint: options.hostnameHint,
    ...(options.calibration === false ? {} : { calibration: { target: startLoopbackTarget, ...options.calibration } }),
  });
  const hosts = watchForNewTools({
    host,
    intervalMillis: options.redetectMillis ?? 10_000,
    rebuild: () => prepareAgentHost(hostOptions),
    onNewHost(next) {
      options.onToolReport?.(next.report);
      agent.updateTools({ tools: next.tools, toolVersions: next.toolVersions, toolProblems: toolProblemsOf(next.report), runner: next.runner });
    },
    logger: options.logger,
  });
  return {
    ...agent,
    get report() {
      return hosts.current().report;
    },
    async shutdown() {
      await agent.stop();
      await hosts.stop();
    },
  };
}
