/** list_machines and get_machine: the workspace's load generators, their status, hardware, agent and tools. */
import { type Static, Type } from '@sinclair/typebox';
import { RestError, type RestClient } from '../rest-client.ts';
import { defineTool } from '../tool-registry.ts';
import { newestFirst, Nullable, pageArgs, pageOf } from '../paging.ts';

export const Machine = Type.Object(
  {
    id: Type.String(),
    name: Type.String(),
    hostname: Type.String(),
    ip_address: Type.String(),
    os: Type.String(),
    arch: Type.String(),
    cpu_cores: Type.Integer({ description: '0 when unknown' }),
    memory_gb: Type.Integer({ description: 'GB; 0 when unknown' }),
    status: Type.String({ description: 'online when an agent is connected, else offline' }),
    created_at: Type.String(),
    agent_version: Type.Optional(Nullable(Type.String())),
    tools: Type.Optional(
      Type.Array(Type.Object({ tool: Type.String(), version: Nullable(Type.String()) }), { description: 'load tools the agent can run here' }),
    ),
    region: Type.Optional(Nullable(Type.String({ description: "the agent's region, when it set one" }))),
    benchmark_capacity: Type.Optional(Nullable(Type.Number({ description: 'requests/s this machine sustained in its calibration run' }))),
  },
  { description: 'a load-generator machine; fields the service adds later appear as well' },
);
export type MachineView = Static<typeof Machine>;

/** Pages scanned at most for a hostname (or where the service has no GET /machines/{id}). */
const scanPages = 20;
const scanPageSize = 1000;

/**
 * A machine by id, or by hostname from the list. A service without GET /machines/{id} answers it 405 (the path has
 * DELETE): the list then. A foreign id is simply not found, as REST says.
 */
export async function findMachine(rest: RestClient, idOrHostname: string): Promise<MachineView> {
  try {
    return await rest.get<MachineView>(`/machines/${encodeURIComponent(idOrHostname)}`);
  } catch (error) {
    if (!(error instanceof RestError) || (error.status !== 404 && error.status !== 405)) throw error;
  }
  let cursor: string | null = null;
  for (let page = 0; page < scanPages; page++) {
    const listed: { items: MachineView[]; next_cursor: string | null } = await rest.page<MachineView>('/machines', { limit: scanPageSize, cursor });
    const found = listed.items.find((machine) => machine.id === idOrHostname) ?? listed.items.find((machine) => machine.hostname === idOrHostname.toLowerCase());
    if (found) return found;
    if (!listed.next_cursor) break;
    cursor = listed.next_cursor;
  }
  throw new RestError(404, 'not_found', `no machine ${idOrHostname} in this workspace`);
}

export const listMachines = defineTool({
  name: 'list_machines',
  title: 'List machines',
  description:
    "The workspace's load-generator machines: status (online/offline), hardware (cpu_cores, memory_gb), OS and architecture, the agent's " +
    'version and the load tools it offers (a run needs an online machine offering its tool), and, where the service reports them, region ' +
    `and benchmark_capacity (requests/s one machine sustained, to size how many machines a target load needs). ${newestFirst}`,
  input: Type.Object(pageArgs, { additionalProperties: false }),
  output: pageOf(Machine),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ limit, cursor }, { rest }) => rest.page<MachineView>('/machines', { limit, cursor }),
});

export const getMachine = defineTool({
  name: 'get_machine',
  title: 'Get a machine',
  description: 'One machine by its id (or hostname), with the same fields as list_machines. Use runs_by_machine for its run history.',
  input: Type.Object({ machine_id: Type.String({ minLength: 1, description: 'the machine id (or its hostname)' }) }, { additionalProperties: false }),
  output: Type.Object({ machine: Machine }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: async ({ machine_id }, { rest }) => ({ machine: await findMachine(rest, machine_id) }),
});
