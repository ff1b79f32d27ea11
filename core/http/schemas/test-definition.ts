/** Test-definition request and response schemas, and the entity-to-API view. */
import { t } from 'elysia';
import type { TestDefinition } from '../../domain/entities/test-definition.ts';
import { testStatuses, testTools } from '../../domain/test-rules.ts';
import { documented, NonBlank, nonBlankPattern, Timestamp } from './common.ts';
import { literalUnion } from './literal-union.ts';

const Tool = literalUnion(testTools, { description: testTools.join(', ') });
const Status = literalUnion(testStatuses, { description: `${testStatuses.join(', ')}; default draft` });
const Name = NonBlank({ maxLength: 200 });
const Script = t.String({ minLength: 1, description: 'script text, not blank, at most 1 MiB (UTF-8)', ...documented({ pattern: nonBlankPattern }) });

export const TestView = t.Object(
  {
    id: t.String(),
    name: t.String(),
    tool: Tool,
    status: Status,
    script: t.String(),
    created_at: Timestamp,
    updated_at: Timestamp,
  },
  { title: 'Test' },
);

export const TestCreate = t.Object(
  { name: Name, tool: Tool, script: Script, status: t.Optional(Status) },
  { additionalProperties: false, title: 'TestCreate' },
);

export const TestPatch = t.Object(
  { name: t.Optional(Name), script: t.Optional(Script), status: t.Optional(Status) },
  { additionalProperties: false, title: 'TestPatch', description: 'any of name, script, status; the tool cannot change', ...documented({ minProperties: 1 }) },
);

export function toTestView(test: Pick<TestDefinition, 'id' | 'name' | 'tool' | 'status' | 'script' | 'createdAt' | 'updatedAt'>) {
  return {
    id: test.id,
    name: test.name,
    tool: test.tool as (typeof testTools)[number],
    status: test.status as (typeof testStatuses)[number],
    script: test.script,
    created_at: test.createdAt.toISOString(),
    updated_at: test.updatedAt.toISOString(),
  };
}
