/** get_run_errors: a run's failures grouped by endpoint, kind and code, the most frequent first. */
import { Type } from '@sinclair/typebox';
import { defineTool } from '../tool-registry.ts';
import { RunId } from './runs.ts';

export const defaultErrorGroups = 100;
/** What REST answers at most (GET /tasks/{id}/errors). */
export const maxErrorGroups = 1000;

interface ErrorGroupAnswer {
  endpoint: string;
  kind: 'status' | 'network' | 'check' | 'script';
  code: string;
  message: string;
  count: number;
}

const ErrorGroup = Type.Object({
  endpoint: Type.String({ description: 'the endpoint name (empty when the tool did not name the request)' }),
  kind: Type.Union([Type.Literal('status'), Type.Literal('network'), Type.Literal('check'), Type.Literal('script')], {
    description: 'status: an answer with a failing status; network: no answer (refused, reset, timeout); check: a failed check or expectation; script: an error of the script',
  }),
  code: Type.String({ description: 'the status code, the network error code, the check name ...' }),
  message: Type.String({ description: 'one message of the group, as a sample' }),
  count: Type.Integer({ description: 'failures in this group across machines' }),
});

export const getRunErrors = defineTool({
  name: 'get_run_errors',
  title: 'Errors of a run',
  description:
    "A run's failures grouped by endpoint, kind (status: a failing HTTP status; network: no answer, refused, reset or timed out; check: a " +
    'failed check or expectation; script: an error of the script) and code (the status, the network error code, the check name), each ' +
    `with its count across machines and one sample message; the most frequent first. The first limit groups (default ${defaultErrorGroups}, at ` +
    `most ${maxErrorGroups}); groups_total and failures_total count what the service holds. Use it after get_run_endpoints shows errors.`,
  input: Type.Object(
    {
      run_id: RunId,
      limit: Type.Optional(Type.Integer({ minimum: 1, maximum: maxErrorGroups, default: defaultErrorGroups, description: 'groups to return, the most frequent' })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    run_id: Type.String({ description: 'the run id as given' }),
    groups: Type.Array(ErrorGroup),
    groups_total: Type.Integer({ description: `groups the service listed (at most ${maxErrorGroups})` }),
    failures_total: Type.Integer({ description: 'the sum of their counts' }),
  }),
  annotations: { readOnlyHint: true, idempotentHint: true },
  async run({ run_id, limit = defaultErrorGroups }, { rest }) {
    const groups = await rest.get<ErrorGroupAnswer[]>(`/tasks/${encodeURIComponent(run_id)}/errors`);
    return {
      run_id,
      groups: groups.slice(0, limit),
      groups_total: groups.length,
      failures_total: groups.reduce((sum, group) => sum + group.count, 0),
    };
  },
});
