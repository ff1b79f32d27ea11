/**
 * The Loadplane agent: dials out to the server over one WebSocket, registers its machine, runs assignments through
 * the load-tool plugins, streams log batches and metric snapshots, and reconnects with backoff, resuming its runs.
 */
import type { Assignment, LoadTool, MetricSnapshot, RunOutcome } from '../capabilities/load-tool.ts';
import type { Logger } from '../kernel/logger.ts';
import type { ProcessRunner } from '../ports/process-runner.ts';
import { type AgentMessage, agentProtocolVersion, machineDeletedCloseCode, machineTakenCloseCode, type ServerMessage } from './protocol.ts';
import { runAssignment } from './run-assignment.ts';
import { calibrate, type CalibrationSettings } from './calibration.ts';
import { createCalibrationScheduler } from './calibration-scheduler.ts';

export interface SystemInfo {
  hostname: string;
  name?: string;
  ip_address: string;
  os: string;
  arch: string;
  cpu_cores: number;
  memory_gb: number;
  /** Where the machine runs (`--region`), e.g. eu-west-1; absent: the agent names none. */
  region?: string;
}

/** The smallest WebSocket surface the agent needs; the host adapts its runtime's client to it. */
export interface AgentSocket {
  send(text: string): void;
  close(code?: number, reason?: string): void;
  onOpen(handler: () => void): void;
  onMessage(handler: (text: string) => void): void;
  onClose(handler: (code: number, reason: string) => void): void;
}

export interface AgentOptions {
  /** http(s):// origin of the server. */
  serverUrl: string;
  token: string;
  system: SystemInfo;
  version: string;
  tools: ReadonlyMap<string, LoadTool>;
  /** The engines' versions of those tools (tool id -> version), shown by GET /machines. */
  toolVersions?: Readonly<Record<string, string>>;
  /** The tools it does not offer, with why (tool id -> reason), so a task waiting for one can say how to install it. */
  toolProblems?: Readonly<Record<string, string>>;
  runner: ProcessRunner;
  baseEnv: Record<string, string>;
  logger: Logger;
  connect(url: string, headers: Record<string, string>): AgentSocket;
  /** Backoff between reconnects. */
  minReconnectMillis?: number;
  maxReconnectMillis?: number;
  /** Log lines are sent in batches at most this often, or when a batch is full. */
  logBatchMillis?: number;
  maxBatchLines?: number;
  metricsIntervalMillis?: number;
  /** Called once when the service deleted this machine and the agent stopped for good. */
  onRetired?(): void;
  /** This agent's identity (its state directory's machine key): its machine is the one with this key. */
  machineKey?: string;
  /**
   * Another agent with this machine key connected while this one was connected (a cloned VM or state directory): a new
   * key for this agent, kept where the old one was, so it becomes a machine of its own instead of taking the machine back.
   */
  renewMachineKey?(): string;
  /** How the person running the agent chooses its hostname, for the line that says it got another (`--hostname NAME`). */
  hostnameHint?: string;
  /**
   * Measure the machine's capacity with the `http` tool (calibration.ts) after registration and when the server asks;
   * absent: never (`--no-calibration`, and tests that count requests or engine processes).
   */
  calibration?: CalibrationSettings;
}

/** What the agent offers, as its hello and `tools` messages say it. */
export interface ToolOffer {
  tools: ReadonlyMap<string, LoadTool>;
  toolVersions?: Readonly<Record<string, string>>;
  toolProblems?: Readonly<Record<string, string>>;
  /** The runner of these tools (a new host's: its sandbox lets runs read the new engine); default: the agent's. */
  runner?: ProcessRunner;
}

type LogMessage = Extract<AgentMessage, { type: 'log' }>;

interface Run {
  assignment: Assignment;
  abort: AbortController;
  seq: number;
  pending: LogMessage['lines'];
  /** Batches already sent, kept so a reconnect can resend what the server did not store. */
  sent: LogMessage[];
  flushTimer: ReturnType<typeof setTimeout> | null;
  lastFlushAt: number;
  /** Set once the run ended; the run is forgotten after the server heard of it. */
  ended: boolean;
}

const retainedBatches = 2_000;

const emptySummary = (): MetricSnapshot => {
  const now = Date.now();
  return { histogram: { v: 1, buckets: '', count: 0, min: 0, max: 0, sum: 0 }, requests: 0, errors: 0, startedAt: now, endedAt: now };
};
const maxOutbox = 20_000;

export interface RunningAgent {
  stop(): Promise<void>;
  isConnected(): boolean;
  machineId(): string | null;
  /** Resolves once the agent is registered (welcome received). */
  ready: Promise<string>;
  /** The tools changed (an engine installed since the start): the server hears it now, or in the next hello. */
  updateTools(offer: ToolOffer): void;
}

export function startAgent(options: AgentOptions): RunningAgent {
  const minBackoff = options.minReconnectMillis ?? 500;
  const maxBackoff = options.maxReconnectMillis ?? 15_000;
  const batchMillis = options.logBatchMillis ?? 50;
  const maxBatch = options.maxBatchLines ?? 1_000;
  const runs = new Map<string, Run>();
  let socket: AgentSocket | null = null;
  let welcomed = false;
  let stopped = false;
  let backoff = minBackoff;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let machineId: string | null = null;
  /** Messages produced while no socket was welcomed, in order. */
  const outbox: AgentMessage[] = [];
  let offer: ToolOffer = { tools: options.tools, toolVersions: options.toolVersions, toolProblems: options.toolProblems };
  let machineKey = options.machineKey;
  /** The last welcome named the hostname: that server knows machine keys and takes `tools` updates. */
  let serverKnowsKeys = false;
  let toldHostname: string | null = null;
  const ownHostname = options.system.hostname.trim().toLowerCase().replace(/\.$/, '');
  let resolveReady!: (id: string) => void;
  const ready = new Promise<string>((resolve) => (resolveReady = resolve));

  const calibrations = createCalibrationScheduler({
    busy: () => [...runs.values()].some((run) => !run.ended),
    measure: async (signal) => {
      const tool = offer.tools.get('http');
      // Every agent has the built-in http tool; one without it has nothing to measure with, and reports nothing.
      if (!tool || !options.calibration) return null;
      return calibrate({ tool, runner: offer.runner ?? options.runner, baseEnv: options.baseEnv, settings: options.calibration, signal });
    },
    report: (calibration) => send({ type: 'calibration', ...calibration }),
    logger: options.logger,
  });
  let calibratedAtRegistration = false;

  const wsUrl = `${options.serverUrl.replace(/^http/, 'ws').replace(/\/+$/, '')}/api/v1/agent`;

  function send(message: AgentMessage) {
    if (socket && welcomed) {
      try {
        socket.send(JSON.stringify(message));
        return;
      } catch {
        // fall through: keep it for the next connection
      }
    }
    if (outbox.length >= maxOutbox) {
      // Metrics are the first thing to give up; logs and outcomes stay.
      const index = outbox.findIndex((m) => m.type === 'metrics');
      outbox.splice(index >= 0 ? index : 0, 1);
    }
    outbox.push(message);
  }

  function flushLogs(run: Run) {
    if (run.flushTimer) clearTimeout(run.flushTimer);
    run.flushTimer = null;
    run.lastFlushAt = Date.now();
    while (run.pending.length > 0) {
      const batch: LogMessage = { type: 'log', assignmentId: run.assignment.assignmentId, seq: ++run.seq, lines: run.pending.splice(0, maxBatch) };
      run.sent.push(batch);
      if (run.sent.length > retainedBatches) run.sent.shift();
      send(batch);
    }
  }

  async function execute(assignment: Assignment) {
    if (runs.has(assignment.assignmentId)) return;
    calibrations.yieldToRun();
    const run: Run = { assignment, abort: new AbortController(), seq: 0, pending: [], sent: [], flushTimer: null, lastFlushAt: 0, ended: false };
    runs.set(assignment.assignmentId, run);
    const tool = offer.tools.get(assignment.tool);
    if (!tool) {
      run.ended = true;
      send({ type: 'start_failed', assignmentId: assignment.assignmentId, message: `this agent has no ${assignment.tool} plugin` });
      runs.delete(assignment.assignmentId);
      return;
    }
    let result: { outcome: RunOutcome; summary: MetricSnapshot; exitCode: number | null; startError?: string };
    try {
      result = await runAssignment({
        tool,
        assignment,
        runner: offer.runner ?? options.runner,
        signal: run.abort.signal,
        baseEnv: options.baseEnv,
        metricsIntervalMs: options.metricsIntervalMillis ?? 1000,
        onStarted: () => send({ type: 'started', assignmentId: assignment.assignmentId }),
        onLog: (line) => {
          run.pending.push(line);
          // A line after a quiet spell goes out at once; a burst is batched for at most batchMillis.
          if (run.pending.length >= maxBatch || (!run.flushTimer && Date.now() - run.lastFlushAt >= batchMillis)) flushLogs(run);
          else run.flushTimer ??= setTimeout(() => flushLogs(run), batchMillis);
        },
        onMetrics: (snapshot) => send({ type: 'metrics', assignmentId: assignment.assignmentId, snapshot }),
      });
    } catch (error) {
      result = {
        outcome: { status: 'failed', reason: String(error) },
        summary: emptySummary(),
        exitCode: null,
        startError: String(error),
      };
    }
    flushLogs(run);
    run.ended = true;
    if (result.startError) {
      send({ type: 'start_failed', assignmentId: assignment.assignmentId, message: result.startError });
    } else {
      send({
        type: 'finished',
        assignmentId: assignment.assignmentId,
        status: result.outcome.status,
        ...(result.outcome.reason ? { reason: result.outcome.reason.slice(0, 2000) } : {}),
        exitCode: result.exitCode,
        summary: result.summary,
      });
    }
    // Keep the run for a resend until the outcome has left on a welcomed socket.
    if (socket && welcomed && !outbox.some((m) => 'assignmentId' in m && m.assignmentId === assignment.assignmentId)) {
      runs.delete(assignment.assignmentId);
    }
    calibrations.idle();
  }

  function onServerMessage(text: string) {
    let message: ServerMessage;
    try {
      message = JSON.parse(text) as ServerMessage;
    } catch {
      return;
    }
    switch (message.type) {
      case 'welcome': {
        welcomed = true;
        backoff = minBackoff;
        machineId = message.machineId;
        serverKnowsKeys = typeof message.hostname === 'string';
        if (message.hostname && message.hostname !== ownHostname && message.hostname !== toldHostname) {
          // Once per name, not per reconnect: the machine of this hostname belongs to another agent that is connected.
          toldHostname = message.hostname;
          options.logger.warn(
            `the machine ${ownHostname} belongs to another agent, so this agent is the machine ${message.hostname}${options.hostnameHint ? `; to choose its name, ${options.hostnameHint}` : ''}`,
            { hostname: ownHostname, registered_as: message.hostname },
          );
        }
        if (heartbeat) clearInterval(heartbeat);
        heartbeat = setInterval(() => send({ type: 'heartbeat' }), message.heartbeatSeconds * 1000);
        // Resend the log batches the server had not stored when the connection broke.
        const queued = new Set(outbox.filter((m) => m.type === 'log').map((m) => `${(m as LogMessage).assignmentId}:${(m as LogMessage).seq}`));
        for (const { assignmentId, logSeq } of message.resumed) {
          for (const batch of runs.get(assignmentId)?.sent ?? []) {
            if (batch.seq > logSeq && !queued.has(`${assignmentId}:${batch.seq}`)) socket!.send(JSON.stringify(batch));
          }
        }
        for (const id of message.unknown) {
          runs.get(id)?.abort.abort();
          runs.delete(id);
        }
        for (const queuedMessage of outbox.splice(0)) socket!.send(JSON.stringify(queuedMessage));
        for (const [id, run] of runs) if (run.ended) runs.delete(id);
        options.logger.info('agent registered', { machine_id: message.machineId, resumed: message.resumed.length });
        resolveReady(message.machineId);
        // Once per agent process, not per reconnect: the figure belongs to the machine, which a reconnect does not change.
        if (options.calibration && !calibratedAtRegistration) {
          calibratedAtRegistration = true;
          calibrations.request();
        }
        return;
      }
      case 'assign':
        void execute(message.assignment);
        return;
      case 'cancel': {
        const run = runs.get(message.assignmentId);
        if (run && !run.ended) {
          // The run ends through its usual `finished`, which the server takes as the confirmation.
          run.abort.abort();
        } else if (!run) {
          // Nothing of it runs here (the assign never arrived, or it ended): confirm at once so the machine is free.
          send({ type: 'finished', assignmentId: message.assignmentId, status: 'failed', reason: 'not running on this agent', exitCode: null, summary: emptySummary() });
        }
        return;
      }
      case 'calibrate':
        if (options.calibration) calibrations.request();
        return;
      case 'error':
        options.logger.warn('server refused a message', { message: message.message });
        return;
    }
  }

  function connect() {
    if (stopped) return;
    welcomed = false;
    const current = options.connect(wsUrl, { authorization: `Bearer ${options.token}` });
    socket = current;
    current.onOpen(() => {
      const hello: AgentMessage = {
        type: 'hello',
        protocol: agentProtocolVersion,
        ...options.system,
        agent_version: options.version,
        tools: [...offer.tools.keys()],
        ...(offer.toolVersions ? { tool_versions: offer.toolVersions } : {}),
        ...(offer.toolProblems ? { tool_problems: offer.toolProblems } : {}),
        running: [...runs.values()].map((run) => ({ assignmentId: run.assignment.assignmentId, logSeq: run.seq })),
        ...(machineKey ? { machine_key: machineKey } : {}),
      };
      current.send(JSON.stringify(hello));
    });
    current.onMessage(onServerMessage);
    current.onClose((code, reason) => {
      if (socket !== current) return;
      const wasWelcomed = welcomed;
      socket = null;
      welcomed = false;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      if (stopped) return;
      if (code === machineDeletedCloseCode) {
        // Reconnecting would register the machine again, undoing the deletion: stop and say how to come back.
        stopped = true;
        calibrations.stop();
        for (const run of runs.values()) run.abort.abort();
        options.logger.error('the service deleted this machine; the agent stops. Start it again to register the machine anew', { reason });
        options.onRetired?.();
        return;
      }
      if (code === machineTakenCloseCode && wasWelcomed && serverKnowsKeys && machineKey && options.renewMachineKey) {
        // This socket was live, so no reconnect of ours replaced it: another agent has this machine key (a cloned VM or
        // state directory). With the key this agent would take the machine back, and the other would again: a loop.
        machineKey = options.renewMachineKey();
        options.logger.warn('another agent connected with this machine key (a cloned VM or state directory?); this agent took a new key and registers as a machine of its own', { reason });
        backoff = minBackoff;
      }
      options.logger.warn('agent connection closed; reconnecting', { code, reason, in_ms: backoff });
      // Jittered exponential backoff, so a restarted server is not hit by every agent at once.
      reconnectTimer = setTimeout(connect, backoff * (0.75 + Math.random() / 2));
      backoff = Math.min(maxBackoff, backoff * 2);
    });
  }

  connect();

  return {
    ready,
    isConnected: () => welcomed,
    machineId: () => machineId,
    updateTools(next) {
      offer = next;
      if (!socket || !welcomed) return; // the next hello carries them
      const current = socket;
      if (!serverKnowsKeys) {
        // A server from before `tools` updates hears of them in a hello only.
        current.close(1000, 'tools changed');
        return;
      }
      send({
        type: 'tools',
        tools: [...next.tools.keys()],
        ...(next.toolVersions ? { tool_versions: next.toolVersions } : {}),
        ...(next.toolProblems ? { tool_problems: next.toolProblems } : {}),
      });
    },
    async stop() {
      stopped = true;
      calibrations.stop();
      if (reconnectTimer) clearTimeout(reconnectTimer);
      if (heartbeat) clearInterval(heartbeat);
      for (const run of runs.values()) run.abort.abort();
      socket?.close(1000, 'agent stopping');
    },
  };
}
