/** list_configs and write_config: named load configurations (vus + duration, or ramping stages) that runs use. */
import { type Static, Type } from '@sinclair/typebox';
import { RestError } from '../rest-client.ts';
import { defineTool } from '../tool-registry.ts';
import { newestFirst, Nullable, pageArgs, pageOf } from '../paging.ts';

const Duration = Type.String({ pattern: '^\\s*([0-9]+(\\.[0-9]+)?(ms|s|m|h))+\\s*$', description: 'a duration such as 30s, 5m, 1h30m' });
const Stage = Type.Object(
  { duration: Duration, target: Type.Integer({ minimum: 0, description: 'virtual users at the end of the stage' }) },
  { additionalProperties: false },
);

const LoadConfig = Type.Object({
  id: Type.String(),
  name: Type.String(),
  vus: Nullable(Type.Integer({ description: 'virtual users, with duration' })),
  duration: Nullable(Type.String()),
  stages: Nullable(Type.Array(Stage, { description: 'instead of vus + duration: VUs ramp linearly to each target in turn' })),
  created_at: Type.String(),
  updated_at: Type.String(),
});
type LoadConfigView = Static<typeof LoadConfig>;

export const listConfigs = defineTool({
  name: 'list_configs',
  title: 'List load configurations',
  description:
    'Named load configurations of the workspace: either vus (concurrent virtual users) with a duration, or stages (each a duration and a ' +
    `target VU count, ramped linearly). A run takes one through run_test's config_id, split across its machines. ${newestFirst}`,
  input: Type.Object(pageArgs, { additionalProperties: false }),
  output: pageOf(LoadConfig),
  annotations: { readOnlyHint: true, idempotentHint: true },
  run: ({ limit, cursor }, { rest }) => rest.page<LoadConfigView>('/configs', { limit, cursor }),
});

export const writeConfig = defineTool({
  name: 'write_config',
  title: 'Create or update a load configuration',
  description:
    'Creates a named load configuration (without config_id: name, and vus + duration or stages) or updates one (with config_id: a new ' +
    'name, and/or a new load shape that replaces the old one whole). vus + duration: that many virtual users for that long; stages: ' +
    'ramps, e.g. [{duration: "30s", target: 10}, {duration: "1m", target: 10}, {duration: "10s", target: 0}]. A run lasts at most 24h. ' +
    'Returns the saved configuration; pass its id to run_test as config_id. Needs manage_tests (tests:write).',
  input: Type.Object(
    {
      config_id: Type.Optional(Type.String({ minLength: 1, description: 'the configuration to update; omit to create one' })),
      name: Type.Optional(Type.String({ minLength: 1, maxLength: 200 })),
      vus: Type.Optional(Type.Integer({ minimum: 1, description: 'virtual users, with duration' })),
      duration: Type.Optional(Duration),
      stages: Type.Optional(Type.Array(Stage, { minItems: 1, description: 'instead of vus + duration' })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({ config: LoadConfig, created: Type.Boolean() }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
  async run({ config_id, name, vus, duration, stages }, { rest }) {
    const shape = { ...(vus !== undefined ? { vus } : {}), ...(duration !== undefined ? { duration } : {}), ...(stages ? { stages } : {}) };
    if (config_id === undefined) {
      if (!name) throw new RestError(400, 'bad_request', 'a new load configuration needs a name; to update one, give config_id');
      return { config: await rest.send<LoadConfigView>('POST', '/configs', { name, ...shape }), created: true };
    }
    const changes = { ...(name ? { name } : {}), ...shape };
    if (Object.keys(changes).length === 0) throw new RestError(400, 'bad_request', 'nothing to change: give name, vus + duration, or stages');
    return { config: await rest.send<LoadConfigView>('PATCH', `/configs/${encodeURIComponent(config_id)}`, changes), created: false };
  },
});
