/**
 * Which tools an agent offers, given its tool sandbox: all it can run when they are isolated (or when the operator
 * turned isolation off); when isolation was asked for and is impossible here, only the tools that run no code of the
 * test's author (`runsAuthorCode: false`, the built-in `http`). Every other tool runs the user's code with file access
 * (a custom script; k6's open() reads any file), so none of those is safe to run unisolated by default.
 */
import type { Logger } from '../../core/kernel/logger.ts';
import type { ToolSandbox } from '../process/sandbox/tool-sandbox.ts';

export function toolsUnderSandbox<T extends { readonly runsAuthorCode?: boolean }>(
  tools: ReadonlyMap<string, T>,
  opened: { sandbox: ToolSandbox | null; refusal: string | null },
  logger: Logger,
): Map<string, T> {
  if (opened.refusal || !opened.sandbox) {
    const safe = new Map([...tools].filter(([, tool]) => tool.runsAuthorCode === false));
    const refused = [...tools.keys()].filter((id) => !safe.has(id));
    const offers = safe.size === 0 ? 'offers no tool' : `offers only ${[...safe.keys()].join(', ')} (no code of the test's author runs)`;
    logger.error(`tools refused: runs cannot be isolated on this machine, so this agent ${offers}`, {
      refused,
      reason: opened.refusal ?? 'no sandbox',
    });
    return safe;
  }
  if (opened.sandbox.kind === 'none') {
    logger.warn('AGENT_SANDBOX=off: tools run without isolation and can read everything this agent can', { tools: [...tools.keys()] });
  } else {
    logger.info('tools run in a sandbox', { tools: [...tools.keys()], sandbox: opened.sandbox.summary });
  }
  return new Map(tools);
}
