/** The agent protocol: JSON messages over one WebSocket that the agent dials out to /api/v1/agent. */
import { type Static, Type } from '@sinclair/typebox';
import type { Assignment, MetricSnapshot } from '../capabilities/load-tool.ts';

export const agentProtocolVersion = 1;

/** The close code of a socket whose machine was deleted: the agent stops instead of registering the machine again. */
export const machineDeletedCloseCode = 4410;

/**
 * The close code of a socket another socket of the same machine replaced (the agent's own reconnect, or another agent
 * with the same machine key), and of a keyless hello whose hostname another agent's machine holds.
 */
export const machineTakenCloseCode = 4409;

const Histogram = Type.Object({
  v: Type.Literal(1),
  buckets: Type.String({ maxLength: 1_000_000 }),
  count: Type.Integer({ minimum: 0 }),
  min: Type.Number({ minimum: 0 }),
  max: Type.Number({ minimum: 0 }),
  sum: Type.Number({ minimum: 0 }),
});

/** An interval's share of one endpoint (optional: older agents and tools without names send none). */
const EndpointSnapshot = Type.Object({
  name: Type.String({ minLength: 1, maxLength: 200 }),
  requests: Type.Integer({ minimum: 0 }),
  errors: Type.Integer({ minimum: 0 }),
  histogram: Histogram,
});

const ErrorGroup = Type.Object({
  endpoint: Type.String({ maxLength: 200 }),
  kind: Type.Union([Type.Literal('status'), Type.Literal('network'), Type.Literal('check'), Type.Literal('script')]),
  code: Type.String({ maxLength: 100 }),
  message: Type.String({ maxLength: 1000 }),
  count: Type.Integer({ minimum: 1 }),
});

export const Snapshot = Type.Object({
  histogram: Histogram,
  requests: Type.Integer({ minimum: 0 }),
  errors: Type.Integer({ minimum: 0 }),
  startedAt: Type.Number(),
  endedAt: Type.Number(),
  // At most 200 names and `(other)`; error groups: 100 and one `(other)` per kind (MetricRecorder's bounds).
  endpoints: Type.Optional(Type.Array(EndpointSnapshot, { maxItems: 201 })),
  errorGroups: Type.Optional(Type.Array(ErrorGroup, { maxItems: 104 })),
});

const Id = Type.String({ minLength: 1, maxLength: 64 });

/** Messages the agent sends. */
export const AgentMessage = Type.Union([
  Type.Object({
    type: Type.Literal('hello'),
    protocol: Type.Integer(),
    hostname: Type.String({ minLength: 1, maxLength: 253 }),
    name: Type.Optional(Type.String({ maxLength: 100 })),
    ip_address: Type.String({ maxLength: 45 }),
    os: Type.String({ maxLength: 20 }),
    arch: Type.String({ maxLength: 20 }),
    cpu_cores: Type.Integer({ minimum: 0 }),
    memory_gb: Type.Integer({ minimum: 0 }),
    agent_version: Type.String({ maxLength: 40 }),
    /** Where the machine runs (`--region`, AGENT_REGION), e.g. eu-west-1; optional: absent, the machine keeps the one it has. */
    region: Type.Optional(Type.String({ maxLength: 100 })),
    tools: Type.Array(Type.String({ maxLength: 40 }), { maxItems: 50 }),
    /** The versions of those tools' engines as the agent found them (tool id -> version); optional for older agents. */
    tool_versions: Type.Optional(Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 100 }), { maxProperties: 50 })),
    /**
     * Tools it does not offer, and why in its own words (tool id -> reason: the missing engine and how to install it, or
     * why it is refused); a pending task quotes them. Optional for older agents.
     */
    tool_problems: Type.Optional(Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 1000 }), { maxProperties: 50 })),
    /** Assignments still running on the agent (after a reconnect), to be resumed. */
    running: Type.Array(Type.Object({ assignmentId: Id, logSeq: Type.Integer({ minimum: 0 }) }), { maxItems: 100 }),
    /**
     * The agent's own random identity, kept in its state directory: its machine is the one with this key, so two agents
     * with one hostname are two machines. Optional: an older agent is found by its hostname alone.
     */
    machine_key: Type.Optional(Type.String({ minLength: 16, maxLength: 200 })),
  }),
  Type.Object({ type: Type.Literal('heartbeat') }),
  /** The tools changed since hello (an engine installed while the agent runs); the same fields as hello's. */
  Type.Object({
    type: Type.Literal('tools'),
    tools: Type.Array(Type.String({ maxLength: 40 }), { maxItems: 50 }),
    tool_versions: Type.Optional(Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 100 }), { maxProperties: 50 })),
    tool_problems: Type.Optional(Type.Record(Type.String({ maxLength: 40 }), Type.String({ maxLength: 1000 }), { maxProperties: 50 })),
  }),
  Type.Object({ type: Type.Literal('started'), assignmentId: Id }),
  Type.Object({
    type: Type.Literal('log'),
    assignmentId: Id,
    /** Batch sequence per assignment, starting at 1: the server drops batches it already stored. */
    seq: Type.Integer({ minimum: 1 }),
    lines: Type.Array(
      Type.Object({ source: Type.Union([Type.Literal('out'), Type.Literal('err')]), text: Type.String(), ts: Type.Number() }),
      { maxItems: 10_000 },
    ),
  }),
  Type.Object({ type: Type.Literal('metrics'), assignmentId: Id, snapshot: Snapshot }),
  Type.Object({
    type: Type.Literal('finished'),
    assignmentId: Id,
    status: Type.Union([Type.Literal('completed'), Type.Literal('failed')]),
    reason: Type.Optional(Type.String({ maxLength: 2000 })),
    exitCode: Type.Union([Type.Integer(), Type.Null()]),
    summary: Snapshot,
  }),
  Type.Object({ type: Type.Literal('start_failed'), assignmentId: Id, message: Type.String({ maxLength: 2000 }) }),
  /**
   * A calibration's figure: the requests/s this machine sustained with the `http` tool against a loopback target of its
   * own, with that many VUs for that long (calibration.ts). Not a task: it has no assignment, logs or metrics.
   */
  Type.Object({
    type: Type.Literal('calibration'),
    requests_per_sec: Type.Number({ minimum: 0, maximum: 1e9 }),
    vus: Type.Integer({ minimum: 1, maximum: 10_000 }),
    duration_ms: Type.Integer({ minimum: 1, maximum: 3_600_000 }),
  }),
]);
export type AgentMessage = Static<typeof AgentMessage>;

/** Messages the server sends. */
export type ServerMessage =
  | {
      type: 'welcome';
      machineId: string;
      heartbeatSeconds: number;
      /** Runs the server continues, with the last log batch it stored of each (the agent resends later ones). */
      resumed: { assignmentId: string; logSeq: number }[];
      /** Runs the server no longer knows: the agent stops them. */
      unknown: string[];
      /**
       * The machine's hostname: the agent's, or `<hostname>-2` ... when another agent's machine holds that one. Sent by
       * servers that know machine keys and `tools` updates (an agent without it reconnects to report new tools).
       */
      hostname?: string;
    }
  | { type: 'assign'; assignment: Assignment }
  | { type: 'cancel'; assignmentId: string }
  /** Measure the machine's capacity again (POST /machines/{id}/calibrate): the agent does once it runs nothing. */
  | { type: 'calibrate' }
  | { type: 'error'; message: string };

export type { MetricSnapshot };
