/**
 * The UI's API types are generated from the service's own OpenAPI document (openapi-typescript) and committed in
 * ui/src/api/schema.d.ts; this test fails when a route changed without regenerating them.
 * Regenerate: `UPDATE_UI_API_TYPES=1 npm test -- tests/ui/api-types-current.test.ts` (or `npm run ui:api-types`).
 */
import { afterAll, beforeAll, expect, test } from 'bun:test';
import { readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import { startTestService, type TestService } from '../helpers/test-service.ts';

const schemaFile = join(import.meta.dir, '../../ui/src/api/schema.d.ts');
const header = '/** Generated from the service\'s OpenAPI document by tests/ui/api-types-current.test.ts: do not edit. */\n';

let ts: TestService;
beforeAll(async () => {
  // The document does not depend on the database: PGlite in memory in both passes (its PostgreSQL boot and drop add
  // nothing here; CI twice saw this file's stop on PostgreSQL outlive its hook's time on a loaded machine).
  ts = await startTestService({ database: 'memory' });
}, 180_000);
afterAll(() => ts?.stop());

test('ui/src/api/schema.d.ts matches the OpenAPI document the service serves', async () => {
  const document = await (await ts.request('/swagger-ui/openapi.json')).json();
  const generated = header + astToString(await openapiTS(document as Parameters<typeof openapiTS>[0]));
  if (process.env.UPDATE_UI_API_TYPES === '1') await writeFile(schemaFile, generated);
  const committed = await readFile(schemaFile, 'utf8').catch(() => '');
  expect(committed === generated ? 'current' : 'stale: run `npm run ui:api-types`').toBe('current');
});
