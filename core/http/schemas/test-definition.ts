/** Test-definition request and response schemas, and the entity-to-API view; the tool vocabulary is the service's. */
import { t } from 'elysia';
import type { TestDefinition } from '../../domain/entities/test-definition.ts';
import { testStatuses } from '../../domain/test-rules.ts';
import { maxEndpointNameLength, maxThresholds, thresholdMetrics, thresholdOps } from '../../domain/thresholds.ts';
import { documented, NonBlank, nonBlankPattern, Timestamp } from './common.ts';
import { literalUnion } from './literal-union.ts';

const Status = literalUnion(testStatuses, { description: `${testStatuses.join(', ')}; default draft` });
const Name = NonBlank({ maxLength: 200 });
const thresholdFields = {
  metric: literalUnion(thresholdMetrics, { description: 'p50, p95, p99 (milliseconds), error_rate (fraction 0..1) or requests_per_sec' }),
  endpoint: t.Optional(
    NonBlank({
      maxLength: maxEndpointNameLength,
      description: "an endpoint's name: checked on that endpoint's figures; an endpoint without figures fails the threshold (actual null)",
    }),
  ),
  op: literalUnion(thresholdOps, { description: 'the figure must be <, <=, > or >= the value to pass' }),
  value: t.Number({ minimum: 0, description: 'milliseconds, a fraction 0..1 (error_rate), or requests per second; finite' }),
  abort: t.Optional(t.Boolean({ description: 'stop the run at once when this threshold fails while it runs (default false)' })),
};

/** One threshold, as a test takes it and shows it. */
export const Threshold = t.Object(thresholdFields, {
  additionalProperties: false,
  title: 'Threshold',
  // An error rate is a fraction: the service refuses a value above 1 for it.
  ...documented({ if: { properties: { metric: { const: 'error_rate' } } }, then: { properties: { value: { maximum: 1 } } } }),
});

/** A threshold checked on a run: the threshold, the figure it was checked on (null: none measured) and whether it held. */
export const ThresholdResult = t.Object(
  {
    ...thresholdFields,
    actual: t.Nullable(t.Number({ description: 'the measured figure; null when there is none (an endpoint without figures, a latency without requests)' })),
    ok: t.Boolean(),
  },
  { title: 'ThresholdResult' },
);

const thresholdsDescription = `pass/fail conditions on a run's merged figures, at most ${maxThresholds}; each run copies them when it is created`;
const Thresholds = t.Array(Threshold, { maxItems: maxThresholds, description: thresholdsDescription });

/**
 * Thresholds as a request gives them: any JSON here, checked by the service (`checkThresholds`), whose 400 names the
 * item and the field (`thresholds[2].op`); a schema union with null would only say "should be one of array, null".
 * The document shows the real shape.
 */
const ThresholdsInput = t.Unknown({
  description: `${thresholdsDescription}; null or [] is none`,
  ...documented({ anyOf: [Thresholds, { type: 'null' }] }),
});

const Script = t.String({ minLength: 1, description: 'script text, not blank, at most 1 MiB (UTF-8)', ...documented({ pattern: nonBlankPattern }) });

/**
 * The schemas for the tool ids this service accepts: the spec's six and every registered load-tool plugin's id
 * (`testToolIds`), so a third-party tool appears in validation and in the OpenAPI enum alike. Answers name the tool
 * as a plain string: a test keeps its tool when the plugin is later removed.
 */
export function testSchemas(toolIds: readonly string[]) {
  const Tool = literalUnion(toolIds, { description: toolIds.join(', ') });
  const TestView = t.Object(
    {
      id: t.String(),
      name: t.String(),
      tool: t.String({ description: `the tool id: ${toolIds.join(', ')}` }),
      status: Status,
      script: t.String(),
      thresholds: Thresholds,
      baseline_task_id: t.Nullable(
        t.String({ description: 'the finished run of this test that compare?with=baseline compares against (PUT /tests/{id}/baseline); null: none' }),
      ),
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { title: 'Test' },
  );
  const TestCreate = t.Object(
    { name: Name, tool: Tool, script: Script, status: t.Optional(Status), thresholds: t.Optional(ThresholdsInput) },
    { additionalProperties: false, title: 'TestCreate' },
  );
  const TestPatch = t.Object(
    { name: t.Optional(Name), script: t.Optional(Script), status: t.Optional(Status), thresholds: t.Optional(ThresholdsInput) },
    {
      additionalProperties: false,
      title: 'TestPatch',
      description: 'any of name, script, status, thresholds (replaces the list; null or [] removes them); the tool cannot change',
      ...documented({ minProperties: 1 }),
    },
  );
  return { TestView, TestCreate, TestPatch };
}

export function toTestView(
  test: Pick<TestDefinition, 'id' | 'name' | 'tool' | 'status' | 'script' | 'thresholds' | 'baselineTaskId' | 'createdAt' | 'updatedAt'>,
) {
  return {
    id: test.id,
    name: test.name,
    tool: test.tool,
    status: test.status as (typeof testStatuses)[number],
    script: test.script,
    thresholds: test.thresholds ?? [],
    baseline_task_id: test.baselineTaskId ?? null,
    created_at: test.createdAt.toISOString(),
    updated_at: test.updatedAt.toISOString(),
  };
}
