/** /env-vars: a workspace's environment variables for its runs; values are write-only (sealed at rest, masked in logs). */
import { Elysia, t } from 'elysia';
import { envKeyPattern, maxEnvKeyLength, maxEnvValueBytes, maxEnvVarsPerWorkspace } from '../../domain/env-var-rules.ts';
import { toEnvVarView } from '../../services/env-vars.ts';
import { PageQuery, pagedList } from '../paging.ts';
import type { RouteDeps } from '../route-deps.ts';
import { requireCaller } from '../require-caller.ts';
import { bearerSecurity, documented, errorResponses, Timestamp } from '../schemas/common.ts';

const Actor = t.Object(
  {
    type: t.String({ description: 'user or token' }),
    id: t.Nullable(t.String()),
    label: t.Nullable(t.String({ description: 'user name, or the API token name' })),
    user_id: t.Nullable(t.String()),
  },
  { title: 'Actor' },
);

const EnvVarView = t.Object(
  { key: t.String(), created_at: Timestamp, updated_at: Timestamp, updated_by: Actor },
  { title: 'EnvVar', description: 'the value is never returned' },
);

const KeyParams = t.Object({
  key: t.String({
    description: `an environment variable name (letters, digits, _; not starting with a digit), at most ${maxEnvKeyLength} characters. Reserved (400 naming the rule): what the agent sets (PATH, HOME, LANG, TZ, LC_*, TERM ...), LOADPLANE_*, and every name the C library or loader (LD_*, GCONV_PATH, TMPDIR ...), a shell (BASH*, ENV, IFS, SHELLOPTS, PS1-PS4 ...), an interpreter or runtime (PYTHON*, PERL*, RUBY*, NODE_*, JAVA_*, CLASSPATH ...) or a load engine (K6_*, LOCUST_*, JMETER_*, GATLING_*, ARTILLERY_*) reads`,
    ...documented({ pattern: envKeyPattern, maxLength: maxEnvKeyLength }),
  }),
});

const EnvVarPut = t.Object(
  { value: t.String({ description: `at most ${maxEnvValueBytes} bytes (UTF-8), no NUL; masked as *** in run logs when 4 characters or longer` }) },
  { additionalProperties: false, title: 'EnvVarPut' },
);

export const envVarRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, prefix: '/env-vars', detail: { tags: ['Environment variables'], security: bearerSecurity } })
    .use(requireCaller(deps.authenticate))
    .get('', (context) => pagedList(context, (page) => deps.envVars.list(context.caller, page), toEnvVarView), {
      query: PageQuery,
      response: { 200: t.Array(EnvVarView), 400: errorResponses[400], 401: errorResponses[401], 403: errorResponses[403] },
      detail: { summary: "The workspace's environment variables, newest first: keys, times and who changed them, never values" },
    })
    .put(
      '/:key',
      async ({ caller, params, body, set }) => {
        const { row, created } = await deps.envVars.put(caller, params.key, body.value);
        set.status = created ? 201 : 200;
        return toEnvVarView(row);
      },
      {
        params: KeyParams,
        body: EnvVarPut,
        response: {
          200: EnvVarView,
          201: EnvVarView,
          400: errorResponses[400],
          401: errorResponses[401],
          403: errorResponses[403],
        },
        detail: {
          summary: `Set a variable (201 when new, 200 when replaced); at most ${maxEnvVarsPerWorkspace} per workspace. Every run's tool gets it in its process environment`,
        },
      },
    )
    .delete(
      '/:key',
      async ({ caller, params, set }) => {
        await deps.envVars.remove(caller, params.key);
        set.status = 204;
      },
      {
        params: t.Object({ key: t.String({ description: 'the variable name; a reserved name stored before its rule can still be deleted' }) }),
        response: { 204: t.Void(), 401: errorResponses[401], 403: errorResponses[403], 404: errorResponses[404] },
        detail: { summary: 'Delete a variable; runs started from now on no longer get it' },
      },
    );
