/** Tells a tool's own lines in a run's log from the progress lines a real agent writes there when the tool is quiet. */
import { progressPrefix } from '../../core/agent/progress-line.ts';

/**
 * Whether a log line is the agent's progress line. A real agent (in-process or `npm run agent`) writes one whenever the
 * tool printed nothing for 2 s: a script's `sleep 1`, or a slow sandbox start on a busy machine, is enough. Protocol
 * agents (protocol-agent.ts) send only the lines a test gives them.
 */
export const isProgressLine = (text: string): boolean => text.startsWith(progressPrefix);

/** The lines the tool printed, in their order: a run's log without the agent's progress lines. */
export const scriptLines = (texts: readonly string[]): string[] => texts.filter((text) => !isProgressLine(text));
