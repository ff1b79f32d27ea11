/**
 * The isolation walk's world (tests/security/isolation-walk.test.ts): two workspaces made through the real API over a
 * socket. A holds an owner, an admin member, two pending invitations, machines (one of them a connected protocol agent
 * running A's task), tests, configs and tokens; B holds an owner (JWT and API token), an agent token, a test, a machine.
 */
import { LatencyHistogram } from '../../core/domain/metrics/histogram.ts';
import { createProtocolAgent, type ProtocolAgent } from './protocol-agent.ts';
import { waitFor } from './process-probes.ts';
import { startRemoteMcpServer } from './remote-mcp-server.ts';
import type { TestService } from './test-service.ts';

export type Json = Record<string, unknown>;
export type Call = (token: string, method: string, path: string, options?: { json?: unknown; headers?: Record<string, string> }) => Promise<Response>;

/** Calls /api/v1 of the service at `base` over the socket. */
export const apiOver = (base: string): Call => (token, method, path, options = {}) =>
  fetch(`${base}/api/v1${path}`, {
    method,
    headers: {
      authorization: `Bearer ${token}`,
      ...(options.json !== undefined ? { 'content-type': 'application/json' } : {}),
      ...options.headers,
    },
    body: options.json !== undefined ? JSON.stringify(options.json) : undefined,
  });

export async function created<T = Json>(response: Response, status = 201): Promise<T> {
  if (response.status !== status) throw new Error(`${response.url}: expected ${status}, got ${response.status} ${await response.text()}`);
  return (await response.json()) as T;
}

export const histogram = () => {
  const h = new LatencyHistogram();
  for (let i = 1; i <= 10; i++) h.record(i);
  return h.encode();
};

/** A raw agent socket: says hello, waits for the welcome, then sends whatever the test says. */
export async function rawAgent(base: string, token: string, hostname: string) {
  const socket = new WebSocket(`${base.replace(/^http/, 'ws')}/api/v1/agent`, { headers: { authorization: `Bearer ${token}` } } as unknown as string[]);
  const messages: Json[] = [];
  const welcomed = new Promise<Json>((resolve, reject) => {
    socket.addEventListener('message', (event) => {
      const message = JSON.parse(String(event.data)) as Json;
      messages.push(message);
      if (message.type === 'welcome') resolve(message);
    });
    socket.addEventListener('close', (event) => reject(new Error(`agent socket closed: ${event.code} ${event.reason}`)));
  });
  socket.addEventListener('open', () =>
    socket.send(
      JSON.stringify({
        type: 'hello', protocol: 1, hostname, ip_address: '127.0.0.1', os: 'linux', arch: 'x86_64',
        cpu_cores: 2, memory_gb: 4, agent_version: 'walk', tools: ['k6'], running: [],
      }),
    ),
  );
  const welcome = await welcomed;
  return { socket, messages, welcome, send: (message: unknown) => socket.send(JSON.stringify(message)) };
}

export interface WorkspaceA {
  jwt: string;
  workspaceId: string;
  userId: string;
  admin: { jwt: string; userId: string };
  invitees: { jwt: string; invitationId: string }[];
  machine: Json;
  spareMachine: Json;
  test: Json;
  spareTest: Json;
  config: Json;
  spareConfig: Json;
  /** Schedules of A's test (due next on 1 January: none fires during the walk); the spare may be deleted. */
  schedule: Json;
  spareSchedule: Json;
  task: Json;
  token: Json;
  spareTokens: Json[];
  webhook: Json;
  spareWebhook: Json;
  /** The test ping of `webhook`: its delivery id. */
  deliveryId: string;
  /** Environment variables: `envKey` is kept, `spareEnvKey` may be deleted; `envValue` must never show anywhere. */
  envKey: string;
  spareEnvKey: string;
  envValue: string;
  dashboard: Json;
  spareDashboard: Json;
  /** Git repositories pointing at a loopback port nobody serves (their syncs fail; that is fine here). */
  gitRepo: Json;
  spareGitRepo: Json;
  /** Remote MCP servers: `mcpServer` is a real one on loopback (its key `mcpKey` must never show), the spare may be deleted. */
  mcpServer: Json;
  spareMcpServer: Json;
  mcpKey: string;
  agentToken: string;
  agent: ProtocolAgent;
  assignmentId: string;
  /** Every id and name of A: none may ever appear in an answer to B. */
  markers: string[];
}

export interface WorkspaceB {
  jwt: string;
  token: string;
  agentToken: string;
  workspaceId: string;
  test: Json;
  machine: Json;
}

/** Builds both workspaces on the service listening at `base`. */
export async function buildIsolationWorld(ts: TestService, base: string): Promise<{ a: WorkspaceA; b: WorkspaceB; call: Call }> {
  const call = apiOver(base);
  async function signedIn(username: string) {
    const jwt = await ts.createUser(username);
    const me = await call(jwt, 'GET', '/workspace');
    return { jwt, workspaceId: ((await me.json()) as { id: string }).id };
  }

  async function userIdOf(jwt: string, inWorkspace: string, username: string) {
    const members = (await (await call(jwt, 'GET', '/members', { headers: { 'x-workspace-id': inWorkspace } })).json()) as { user_id: string; username: string }[];
    return members.find((m) => m.username === username)!.user_id;
  }

  // ---- Workspace A: owner, an admin member, two pending invitations, machines, tests, configs, tokens, a live run.
  const owner = await signedIn('walk-a-owner');
  const admin = await signedIn('walk-a-admin');
  const adminInvitation = await created<{ id: string }>(await call(owner.jwt, 'POST', '/members', { json: { user: 'walk-a-admin', role: 'admin' } }));
  await created(await call(admin.jwt, 'POST', `/auth/me/invitations/${adminInvitation.id}/accept`), 200);
  const invitees = [];
  for (const name of ['walk-a-invitee', 'walk-a-invitee-2']) {
    const invitee = await signedIn(name);
    const invitation = await created<{ id: string }>(await call(owner.jwt, 'POST', '/members', { json: { user: name, role: 'viewer' } }));
    invitees.push({ jwt: invitee.jwt, invitationId: invitation.id });
  }
  const agentToken = (await created<{ token: string }>(await call(owner.jwt, 'POST', '/api-tokens', { json: { name: 'walk-a-agent', scopes: ['machines:write', 'runs:write'] } }))).token;
  const agent = createProtocolAgent({ origin: base, token: agentToken, hostname: 'walk-a-gen', tools: ['k6'] });
  await agent.connect();
  const machines = (await (await call(owner.jwt, 'GET', '/machines')).json()) as Json[];
  const machine = machines.find((m) => m.hostname === 'walk-a-gen')!;
  const spareMachine = await created(await call(owner.jwt, 'POST', '/machines', { json: { name: 'walk-a-spare', hostname: 'walk-a-spare.example', ip_address: '10.0.0.9' } }));
  const testA = await created(await call(owner.jwt, 'POST', '/tests', { json: { name: 'walk-a-test', tool: 'k6', script: 'export default function () {}' } }));
  const spareTest = await created(await call(owner.jwt, 'POST', '/tests', { json: { name: 'walk-a-spare-test', tool: 'k6', script: 'export default function () {}' } }));
  const config = await created(await call(owner.jwt, 'POST', '/configs', { json: { name: 'walk-a-config', vus: 2, duration: '30s' } }));
  const spareConfig = await created(await call(owner.jwt, 'POST', '/configs', { json: { name: 'walk-a-spare-config', vus: 1, duration: '5s' } }));
  const schedule = await created(
    await call(owner.jwt, 'POST', '/schedules', { json: { test_id: testA.id, cron: '0 0 1 1 *', timezone: 'Europe/Berlin', config_id: config.id, machine_ids: [machine.id] } }),
  );
  const spareSchedule = await created(await call(owner.jwt, 'POST', '/schedules', { json: { test_id: testA.id, cron: '0 0 1 1 *', enabled: false } }));
  const token = await created(await call(owner.jwt, 'POST', '/api-tokens', { json: { name: 'walk-a-token' } }));
  const spareTokens = [
    await created(await call(owner.jwt, 'POST', '/api-tokens', { json: { name: 'walk-a-spare-1' } })),
    await created(await call(owner.jwt, 'POST', '/api-tokens', { json: { name: 'walk-a-spare-2' } })),
  ];
  // Webhooks to a loopback receiver (the walk's service allows 127.0.0.1), and one test ping in the history.
  const receiver = Bun.serve({ port: 0, hostname: '127.0.0.1', fetch: () => new Response('ok') });
  const hookUrl = `http://127.0.0.1:${receiver.port}/walk-a`;
  const webhook = await created(await call(owner.jwt, 'POST', '/webhooks', { json: { url: hookUrl, events: ['test.failed'], description: 'walk-a-webhook' } }));
  const spareWebhook = await created(await call(owner.jwt, 'POST', '/webhooks', { json: { url: `${hookUrl}-spare`, events: ['test.started'] } }));
  const ping = await created<{ id: string }>(await call(owner.jwt, 'POST', `/webhooks/${webhook.id}/test`), 202);
  const envValue = 'walk-a-secret-value-0042';
  await created(await call(owner.jwt, 'PUT', '/env-vars/WALK_A_SECRET', { json: { value: envValue } }));
  await created(await call(owner.jwt, 'PUT', '/env-vars/WALK_A_SPARE', { json: { value: `${envValue}-spare` } }));
  const panels = [{ title: 'walk-a-panel', query: 'metric=http_req_duration', chart: 'line' }];
  const dashboard = await created(await call(owner.jwt, 'POST', '/dashboards', { json: { name: 'walk-a-dashboard', panels } }));
  const spareDashboard = await created(await call(owner.jwt, 'POST', '/dashboards', { json: { name: 'walk-a-spare-dashboard', panels } }));
  const gitRepo = await created(await call(owner.jwt, 'POST', '/git-repos', { json: { url: 'http://127.0.0.1:9/walk-a.git', path: 'walk-a-path', credentials: { password: 'walk-a-git-password' } } }));
  const spareGitRepo = await created(await call(owner.jwt, 'POST', '/git-repos', { json: { url: 'http://127.0.0.1:9/walk-a-spare.git' } }));
  const mcpKey = 'walk-a-mcp-key-0042';
  const remoteMcp = startRemoteMcpServer({ apiKey: mcpKey });
  const mcpServer = await created(await call(owner.jwt, 'POST', '/mcp-servers', { json: { name: 'walk-a-mcp', url: remoteMcp.url, headers: { 'x-api-key': mcpKey } } }));
  const spareMcpServer = await created(await call(owner.jwt, 'POST', '/mcp-servers', { json: { name: 'walk-a-spare-mcp', url: 'http://127.0.0.1:9/mcp' } }));
  const task = await created(await call(owner.jwt, 'POST', '/tasks', { json: { testId: testA.id, configId: config.id, machineIds: [machine.id], transport: 'ws' } }), 202);
  await waitFor(() => agent.received.assigns.length > 0, 30_000, "walk A's assignment to reach its agent");
  const assignmentId = agent.received.assigns[0]!.assignmentId;
  agent.start(assignmentId);
  agent.log(assignmentId, ['walk-a line 1']);

  const a: WorkspaceA = {
    jwt: owner.jwt,
    workspaceId: owner.workspaceId,
    userId: await userIdOf(owner.jwt, owner.workspaceId, 'walk-a-owner'),
    admin: { jwt: admin.jwt, userId: await userIdOf(owner.jwt, owner.workspaceId, 'walk-a-admin') },
    invitees,
    machine,
    spareMachine,
    test: testA,
    spareTest,
    config,
    spareConfig,
    schedule,
    spareSchedule,
    task,
    token,
    spareTokens,
    webhook,
    spareWebhook,
    deliveryId: String(ping.id),
    envKey: 'WALK_A_SECRET',
    spareEnvKey: 'WALK_A_SPARE',
    envValue,
    dashboard,
    spareDashboard,
    gitRepo,
    spareGitRepo,
    mcpServer,
    spareMcpServer,
    mcpKey,
    agentToken,
    agent,
    assignmentId,
    markers: [],
  };
  a.markers.push(
    a.workspaceId, a.userId, a.admin.userId, assignmentId, ...invitees.map((i) => i.invitationId),
    ...[machine, spareMachine, testA, spareTest, config, spareConfig, schedule, spareSchedule, token, ...spareTokens, webhook, spareWebhook, dashboard, spareDashboard, gitRepo, spareGitRepo, mcpServer, spareMcpServer].map((r) => String(r.id)),
    String(ping.id),
    String(task.id), String(task.public_id),
    // Names and usernames (hostnames are left out: B may use the same hostname for a machine of its own).
    'walk-a-owner', 'walk-a-admin', 'walk-a-invitee', 'walk-a-test', 'walk-a-spare-test', 'walk-a-config', 'walk-a-token', 'walk-a-agent', 'walk-a line', 'walk-a-webhook',
    // Workspace data: values and credentials never appear anywhere; names and URLs never in B's answers.
    envValue, 'walk-a-dashboard', 'walk-a-panel', 'walk-a.git', 'walk-a-path', 'walk-a-git-password',
    // A's remote MCP servers: names and URLs never in B's answers, the header value nowhere.
    'walk-a-mcp', 'walk-a-spare-mcp', remoteMcp.url, mcpKey,
  );

  // ---- Workspace B: its owner (by JWT and by API token), an agent token, a test and a machine of its own.
  const ownerB = await signedIn('walk-b-owner');
  const tokenB = await created<{ token: string }>(await call(ownerB.jwt, 'POST', '/api-tokens', { json: { name: 'walk-b-token' } }));
  const agentTokenB = await created<{ token: string }>(await call(ownerB.jwt, 'POST', '/api-tokens', { json: { name: 'walk-b-agent', scopes: ['machines:write', 'runs:write'] } }));
  const b: WorkspaceB = {
    jwt: ownerB.jwt,
    token: tokenB.token,
    agentToken: agentTokenB.token,
    workspaceId: ownerB.workspaceId,
    test: await created(await call(ownerB.jwt, 'POST', '/tests', { json: { name: 'b-test', tool: 'k6', script: 'export default function () {}' } })),
    machine: await created(await call(ownerB.jwt, 'POST', '/machines', { json: { name: 'b-machine', hostname: 'b-machine.example', ip_address: '10.1.0.1' } })),
  };
  return { a, b, call };
}
