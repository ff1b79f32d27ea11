/**
 * How validate_test checks a script without saving anything: with the load-tool plugins' own `validateScript`, the
 * check POST /tests makes. The HTTP endpoint asks the service's registered tools; the stdio server the tools of the
 * program it runs in (the built-in ones), since REST has no dry-run route.
 */
import type { LoadTool } from 'loadplane/plugin';

export interface ScriptVerdict {
  /** Whether this checker knows the tool at all. */
  known: boolean;
  /** null: acceptable; else the message POST /tests would answer with 400. */
  error: string | null;
  /** The tool ids this checker knows. */
  tools: string[];
  /** Who checked: `service` (the endpoint's own tools) or `local` (the stdio program's built-in tools). */
  checkedBy: 'service' | 'local';
}

export type ScriptValidator = (tool: string, script: string) => Promise<ScriptVerdict>;

/** A validator over load tools, read when called (the registry is complete only after boot). */
export function loadToolValidator(tools: () => Promise<readonly Pick<LoadTool, 'tool' | 'validateScript'>[]>, checkedBy: ScriptVerdict['checkedBy']): ScriptValidator {
  return async (toolId, script) => {
    const known = await tools();
    const ids = known.map((tool) => tool.tool).sort();
    const tool = known.find((each) => each.tool === toolId);
    if (!tool) return { known: false, error: null, tools: ids, checkedBy };
    return { known: true, error: tool.validateScript(script), tools: ids, checkedBy };
  };
}
