/** Rules for test definitions: the tool and status vocabularies and the script size limit. */
import { badRequest } from '../kernel/errors.ts';

export const testTools = ['k6', 'jmeter', 'locust', 'artillery', 'gatling', 'custom'] as const;
export const testStatuses = ['draft', 'active', 'archived'] as const;
export type TestTool = (typeof testTools)[number];
export type TestStatus = (typeof testStatuses)[number];

/** 1 MiB of script text: generous for real scripts, small enough to keep list answers fast. */
export const maxScriptBytes = 1024 * 1024;

export function checkScript(script: string): string {
  if (script.trim().length === 0) throw badRequest('script must not be empty', { field: 'script' });
  const bytes = new TextEncoder().encode(script).byteLength;
  if (bytes > maxScriptBytes) {
    throw badRequest(`script is ${bytes} bytes; the limit is ${maxScriptBytes} bytes`, { field: 'script' });
  }
  return script;
}

export function checkName(name: string, field = 'name'): string {
  const trimmed = name.trim();
  if (trimmed.length === 0) throw badRequest(`${field} must not be blank`, { field });
  return trimmed;
}
