/**
 * A scripted agent over a real WebSocket that speaks the agent protocol (core/agent/protocol.ts) and does only what the
 * test tells it: connect, disconnect cleanly, be killed, start, log, finish or fail an assignment, send a bad report,
 * answer cancels. It reconnects by itself after the server went away, reports what it still runs, resends log batches
 * the server did not store, and records a violation if the server ever has it run two assignments at once.
 */
import type { Assignment } from '../../core/capabilities/load-tool.ts';
import { LatencyHistogram } from '../../core/domain/metrics/histogram.ts';

type LogLine = { source: 'out' | 'err'; text: string; ts: number };
type LogBatch = { type: 'log'; assignmentId: string; seq: number; lines: LogLine[] };

export interface HeldRun {
  assignment: Assignment;
  started: boolean;
  /** Log batches sent so far (the batch seq starts at 1), kept for a resend after a reconnect. */
  batches: LogBatch[];
  /** The server asked to stop it; answered at once unless cancels are held. */
  cancelRequested: boolean;
}

export type Report = 'completed' | 'failed' | 'bad-buckets' | 'bad-count' | 'bad-errors' | 'start-failed';

export interface ProtocolAgentOptions {
  /** http:// origin of the server. */
  origin: string;
  token: string;
  hostname: string;
  tools: string[];
  minBackoffMillis?: number;
  maxBackoffMillis?: number;
}

export interface Welcome {
  machineId: string;
  resumed: { assignmentId: string; logSeq: number }[];
  unknown: string[];
}

const emptyHistogram = { v: 1 as const, buckets: '', count: 0, min: 0, max: 0, sum: 0 };

/** A summary that checks out: a real encoded histogram of a few samples. */
function goodSummary(requests: number) {
  const histogram = new LatencyHistogram();
  for (let i = 0; i < requests; i++) histogram.record(1 + ((i * 7) % 40));
  const now = Date.now();
  return { histogram: histogram.encode(), requests, errors: Math.floor(requests / 5), startedAt: now - 1_000, endedAt: now };
}

/** Summaries the server must refuse (and fail only that assignment for). */
function badSummary(kind: 'bad-buckets' | 'bad-count' | 'bad-errors') {
  const now = Date.now();
  const good = goodSummary(5);
  if (kind === 'bad-buckets') return { ...good, histogram: { ...good.histogram, buckets: '!!not base64!!' } };
  if (kind === 'bad-count') return { ...good, histogram: { ...good.histogram, count: good.histogram.count + 3 } };
  return { histogram: emptyHistogram, requests: 2, errors: 9, startedAt: now - 1_000, endedAt: now };
}

export function createProtocolAgent(options: ProtocolAgentOptions) {
  const minBackoff = options.minBackoffMillis ?? 100;
  const maxBackoff = options.maxBackoffMillis ?? 800;
  const wsUrl = `${options.origin.replace(/^http/, 'ws')}/api/v1/agent`;
  const runs = new Map<string, HeldRun>();
  const received = { assigns: [] as Assignment[], cancels: [] as string[], welcomes: [] as Welcome[], errors: [] as string[] };
  const violations: string[] = [];
  /** Every assignment this agent has forgotten because the server said it no longer knows it. */
  const forgottenByServer = new Set<string>();
  let socket: WebSocket | null = null;
  let welcomed = false;
  let wantConnected = false;
  let holdCancels = false;
  let backoff = minBackoff;
  let reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  let heartbeat: ReturnType<typeof setInterval> | null = null;
  let machineId: string | null = null;
  let connections = 0;
  let welcomeWaiters: (() => void)[] = [];

  function sendRaw(message: unknown): boolean {
    if (!socket || !welcomed || socket.readyState !== WebSocket.OPEN) return false;
    socket.send(JSON.stringify(message));
    return true;
  }

  function mustSend(message: unknown) {
    if (!sendRaw(message)) throw new Error(`${options.hostname}: not connected, cannot send ${JSON.stringify(message).slice(0, 80)}`);
  }

  function answerCancel(assignmentId: string) {
    const run = runs.get(assignmentId);
    // A real agent kills the tool and reports the end through its usual `finished`: any status, recorded as cancelled.
    if (run) {
      runs.delete(assignmentId);
      sendRaw({ type: 'finished', assignmentId, status: 'failed', reason: 'killed on request', exitCode: 143, summary: goodSummary(2) });
    } else {
      sendRaw({ type: 'finished', assignmentId, status: 'failed', reason: 'not running on this agent', exitCode: null, summary: { histogram: emptyHistogram, requests: 0, errors: 0, startedAt: Date.now(), endedAt: Date.now() } });
    }
  }

  function onMessage(text: string) {
    const message = JSON.parse(text) as { type: string } & Record<string, unknown>;
    switch (message.type) {
      case 'welcome': {
        const welcome = message as unknown as Welcome;
        received.welcomes.push(welcome);
        machineId = welcome.machineId;
        welcomed = true;
        backoff = minBackoff;
        if (heartbeat) clearInterval(heartbeat);
        heartbeat = setInterval(() => sendRaw({ type: 'heartbeat' }), Number(message.heartbeatSeconds ?? 5) * 1000);
        for (const id of welcome.unknown) {
          runs.delete(id);
          forgottenByServer.add(id);
        }
        // What the server had not stored when the connection broke goes again, in order.
        for (const { assignmentId, logSeq } of welcome.resumed) {
          for (const batch of runs.get(assignmentId)?.batches ?? []) if (batch.seq > logSeq) sendRaw(batch);
        }
        for (const resolve of welcomeWaiters.splice(0)) resolve();
        return;
      }
      case 'assign': {
        const assignment = message.assignment as Assignment;
        received.assigns.push(assignment);
        if (runs.has(assignment.assignmentId)) return; // a resend of one it already holds
        const other = [...runs.keys()];
        if (other.length > 0) violations.push(`${options.hostname} was assigned ${assignment.assignmentId} while it still runs ${other.join(', ')}`);
        runs.set(assignment.assignmentId, { assignment, started: false, batches: [], cancelRequested: false });
        return;
      }
      case 'cancel': {
        const id = String(message.assignmentId);
        received.cancels.push(id);
        const run = runs.get(id);
        if (run) run.cancelRequested = true;
        if (!holdCancels || !run) answerCancel(id);
        return;
      }
      case 'error':
        received.errors.push(String(message.message));
        return;
    }
  }

  function open(): Promise<void> {
    const ready = new Promise<void>((resolve) => welcomeWaiters.push(resolve));
    welcomed = false;
    const current = new WebSocket(wsUrl, { headers: { authorization: `Bearer ${options.token}` } } as unknown as string[]);
    socket = current;
    current.addEventListener('open', () => {
      connections++;
      current.send(
        JSON.stringify({
          type: 'hello',
          protocol: 1,
          hostname: options.hostname,
          ip_address: '127.0.0.1',
          os: 'linux',
          arch: 'x86_64',
          cpu_cores: 2,
          memory_gb: 4,
          agent_version: 'model-test',
          tools: options.tools,
          running: [...runs.values()].map((run) => ({ assignmentId: run.assignment.assignmentId, logSeq: run.batches.length })),
        }),
      );
    });
    current.addEventListener('message', (event) => onMessage(String(event.data)));
    current.addEventListener('close', () => {
      if (socket !== current) return;
      socket = null;
      welcomed = false;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      if (!wantConnected) return;
      // The server went away (a restart): come back with a short jittered backoff, as the real agent does.
      reconnectTimer = setTimeout(() => {
        reconnectTimer = null;
        if (wantConnected && !socket) void open();
      }, backoff * (0.75 + Math.random() / 2));
      backoff = Math.min(maxBackoff, backoff * 2);
    });
    return ready;
  }

  async function waitWelcomed(timeoutMs: number) {
    if (welcomed) return;
    let timer: ReturnType<typeof setTimeout> | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error(`${options.hostname}: no welcome within ${timeoutMs} ms`)), timeoutMs);
    });
    try {
      await Promise.race([new Promise<void>((resolve) => welcomeWaiters.push(resolve)), timeout]);
    } finally {
      clearTimeout(timer);
    }
  }

  function closed(current: WebSocket): Promise<void> {
    if (current.readyState === WebSocket.CLOSED) return Promise.resolve();
    return new Promise((resolve) => current.addEventListener('close', () => resolve()));
  }

  function held(assignmentId: string): HeldRun {
    const run = runs.get(assignmentId);
    if (!run) throw new Error(`${options.hostname} does not hold ${assignmentId}`);
    return run;
  }

  return {
    hostname: options.hostname,
    tools: options.tools,
    received,
    violations,
    forgottenByServer,
    runs,
    isConnected: () => welcomed,
    wantsConnection: () => wantConnected,
    machineId: () => machineId,
    connections: () => connections,
    setHoldCancels(value: boolean) {
      holdCancels = value;
    },
    holdsCancels: () => holdCancels,

    /** Opens the socket and says hello (reporting the runs it still has); resolves on welcome. */
    async connect(timeoutMs = 30_000) {
      wantConnected = true;
      if (welcomed) return;
      if (!socket && !reconnectTimer) void open();
      await waitWelcomed(timeoutMs);
    },
    /** Waits for the automatic reconnect after a server restart. */
    waitConnected: (timeoutMs = 30_000) => waitWelcomed(timeoutMs),
    /** A clean close (code 1000); the agent keeps its runs and reports them when it connects again. */
    async disconnect() {
      wantConnected = false;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      const current = socket;
      if (!current) return;
      current.close(1000, 'agent going away');
      await closed(current);
    },
    /** A crash: the socket is dropped without a close frame and every run is forgotten. */
    async kill() {
      wantConnected = false;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      runs.clear();
      const current = socket;
      if (!current) return;
      (current as unknown as { terminate(): void }).terminate();
      await closed(current);
    },

    start(assignmentId: string) {
      const run = held(assignmentId);
      mustSend({ type: 'started', assignmentId });
      run.started = true;
    },
    log(assignmentId: string, texts: string[]) {
      const run = held(assignmentId);
      const batch: LogBatch = { type: 'log', assignmentId, seq: run.batches.length + 1, lines: texts.map((text) => ({ source: 'out', text, ts: Date.now() })) };
      run.batches.push(batch);
      mustSend(batch);
    },
    /** Ends an assignment the way the test says; it is forgotten at once (the server heard of it). */
    report(assignmentId: string, report: Report) {
      held(assignmentId);
      if (report === 'start-failed') {
        mustSend({ type: 'start_failed', assignmentId, message: 'the tool could not start (scripted)' });
      } else if (report === 'completed' || report === 'failed') {
        mustSend({
          type: 'finished',
          assignmentId,
          status: report,
          ...(report === 'failed' ? { reason: 'the tool exited with 1 (scripted)' } : {}),
          exitCode: report === 'completed' ? 0 : 1,
          summary: goodSummary(10),
        });
      } else {
        mustSend({ type: 'finished', assignmentId, status: 'completed', exitCode: 0, summary: badSummary(report) });
      }
      runs.delete(assignmentId);
    },
    /** Answers the cancels it was told to hold. */
    confirmCancels(): string[] {
      const answered = [...runs.values()].filter((run) => run.cancelRequested).map((run) => run.assignment.assignmentId);
      for (const id of answered) answerCancel(id);
      return answered;
    },

    /** Stops for good (end of the test). */
    async stop() {
      wantConnected = false;
      if (reconnectTimer) clearTimeout(reconnectTimer);
      reconnectTimer = null;
      if (heartbeat) clearInterval(heartbeat);
      heartbeat = null;
      welcomeWaiters = [];
      const current = socket;
      if (current) {
        current.close(1000, 'test over');
        await Promise.race([closed(current), Bun.sleep(1_000)]);
      }
    },
  };
}

export type ProtocolAgent = ReturnType<typeof createProtocolAgent>;
