/** set_baseline: names a finished run of a test as its baseline (what compare_runs with "baseline" compares against), or clears it. */
import { Type } from '@sinclair/typebox';
import { Nullable } from '../paging.ts';
import { RestError } from '../rest-client.ts';
import { defineTool } from '../tool-registry.ts';

interface TestAnswer {
  id: string;
  name: string;
  baseline_task_id: string | null;
}

export const setBaseline = defineTool({
  name: 'set_baseline',
  title: "Set a test's baseline",
  description:
    "Sets the baseline of a test: a finished run of that test (completed or failed; its id or public id) that compare_runs with " +
    '"baseline" compares later runs against, replacing any earlier one. With clear: true instead of run_id, removes the baseline. A run of ' +
    'another test, or one that did not finish (pending, running, cancelled), is a bad_request error. Returns the test id and its baseline ' +
    'run id (null once cleared). Needs manage_tests (tests:write).',
  input: Type.Object(
    {
      test_id: Type.String({ minLength: 1, description: 'the test (list_tests)' }),
      run_id: Type.Optional(Type.String({ minLength: 1, description: 'a finished run of the test: its UUID or public id' })),
      clear: Type.Optional(Type.Boolean({ description: 'true: remove the baseline (give no run_id)' })),
    },
    { additionalProperties: false },
  ),
  output: Type.Object({
    test_id: Type.String(),
    test_name: Nullable(Type.String({ description: 'null after clear' })),
    baseline_run_id: Nullable(Type.String({ description: 'the baseline run UUID; null: none' })),
  }),
  annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
  async run({ test_id, run_id, clear }, { rest }) {
    const path = `/tests/${encodeURIComponent(test_id)}/baseline`;
    if (clear === true) {
      if (run_id !== undefined) throw new RestError(400, 'bad_request', 'give run_id to set the baseline, or clear: true to remove it, not both');
      await rest.send('DELETE', path);
      return { test_id, test_name: null, baseline_run_id: null };
    }
    if (run_id === undefined) throw new RestError(400, 'bad_request', 'give run_id (a finished run of the test) to set the baseline, or clear: true to remove it');
    const test = await rest.send<TestAnswer>('PUT', path, { task_id: run_id });
    return { test_id: test.id, test_name: test.name, baseline_run_id: test.baseline_task_id };
  },
});
