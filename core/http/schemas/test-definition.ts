/** Test-definition request and response schemas, and the entity-to-API view; the tool vocabulary is the service's. */
import { t } from 'elysia';
import type { TestDefinition } from '../../domain/entities/test-definition.ts';
import { testStatuses } from '../../domain/test-rules.ts';
import { documented, NonBlank, nonBlankPattern, Timestamp } from './common.ts';
import { literalUnion } from './literal-union.ts';

const Status = literalUnion(testStatuses, { description: `${testStatuses.join(', ')}; default draft` });
const Name = NonBlank({ maxLength: 200 });
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
      created_at: Timestamp,
      updated_at: Timestamp,
    },
    { title: 'Test' },
  );
  const TestCreate = t.Object(
    { name: Name, tool: Tool, script: Script, status: t.Optional(Status) },
    { additionalProperties: false, title: 'TestCreate' },
  );
  const TestPatch = t.Object(
    { name: t.Optional(Name), script: t.Optional(Script), status: t.Optional(Status) },
    { additionalProperties: false, title: 'TestPatch', description: 'any of name, script, status; the tool cannot change', ...documented({ minProperties: 1 }) },
  );
  return { TestView, TestCreate, TestPatch };
}

export function toTestView(test: Pick<TestDefinition, 'id' | 'name' | 'tool' | 'status' | 'script' | 'createdAt' | 'updatedAt'>) {
  return {
    id: test.id,
    name: test.name,
    tool: test.tool,
    status: test.status as (typeof testStatuses)[number],
    script: test.script,
    created_at: test.createdAt.toISOString(),
    updated_at: test.updatedAt.toISOString(),
  };
}
