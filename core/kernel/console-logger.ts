/**
 * A structured logger writing to stderr (stdout stays free for protocols such as MCP stdio): one JSON line per entry
 * for machines (the default off a terminal), or one short readable line for a person at a terminal (`pretty`).
 */
import type { Logger } from './logger.ts';

const levels = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof levels;
export type LogFormat = 'json' | 'pretty';

/** Longest value a pretty line shows in full; the rest is cut (the JSON format keeps everything). */
const prettyValueChars = 100;

const label: Record<LogLevel, string> = { debug: 'DEBUG', info: 'INFO ', warn: 'WARN ', error: 'ERROR' };

function prettyValue(value: unknown): string {
  const text = typeof value === 'string' ? (/^[^\s"=]+$/.test(value) ? value : JSON.stringify(value)) : JSON.stringify(value) ?? String(value);
  return text.length > prettyValueChars ? `${text.slice(0, prettyValueChars - 1)}…` : text;
}

/** `12:04:05 INFO  [local-agent] tools run in a sandbox  tools=[...] sandbox="bubblewrap ..."`. */
export function prettyLine(time: Date, level: LogLevel, message: string, fields: Record<string, unknown>): string {
  const { component, ...rest } = fields;
  const pairs = Object.entries(rest)
    .filter(([, value]) => value !== undefined)
    .map(([key, value]) => `${key}=${prettyValue(value)}`);
  const clock = time.toISOString().slice(11, 19);
  return `${clock} ${label[level]} ${component ? `[${String(component)}] ` : ''}${message}${pairs.length ? `  ${pairs.join(' ')}` : ''}`;
}

export function createConsoleLogger(level: LogLevel = 'info', bindings: Record<string, unknown> = {}, format: LogFormat = 'json'): Logger {
  const threshold = levels[level];
  const write = (entryLevel: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (levels[entryLevel] < threshold) return;
    const time = new Date();
    if (format === 'pretty') console.error(prettyLine(time, entryLevel, message, { ...bindings, ...fields }));
    else console.error(JSON.stringify({ time: time.toISOString(), level: entryLevel, message, ...bindings, ...fields }));
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    child: (more) => createConsoleLogger(level, { ...bindings, ...more }, format),
  };
}
