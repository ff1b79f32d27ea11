/** Rules for test definitions: the tool and status vocabularies and the script size limit. */
import { badRequest } from '../kernel/errors.ts';

/** The spec's tool ids: a test may always name one of these, whether or not its plugin is loaded yet. */
export const specTools = ['k6', 'jmeter', 'locust', 'artillery', 'gatling', 'custom'] as const;
export const testStatuses = ['draft', 'active', 'archived'] as const;
/** A tool id: one of the spec's, or the id of a registered load-tool plugin. */
export type TestTool = string;
export type TestStatus = (typeof testStatuses)[number];

/**
 * The tool ids tests may use: the spec's six, in the spec's order, then the other registered load tools' ids, sorted.
 * A spec tool without its plugin stays accepted (runs of it answer a clear 400 until the plugin is there).
 */
export function testToolIds(registered: Iterable<string>): string[] {
  const extra = [...new Set(registered)].filter((id) => !(specTools as readonly string[]).includes(id)).sort();
  return [...specTools, ...extra];
}

export function checkTool(tool: string, toolIds: readonly string[]): string {
  if (!toolIds.includes(tool)) throw badRequest(`tool must be one of ${toolIds.join(', ')}`, { field: 'tool' });
  return tool;
}

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
