/** A structured logger writing one JSON line per entry to stderr (stdout stays free for protocols such as MCP stdio). */
import type { Logger } from './logger.ts';

const levels = { debug: 10, info: 20, warn: 30, error: 40 } as const;
export type LogLevel = keyof typeof levels;

export function createConsoleLogger(level: LogLevel = 'info', bindings: Record<string, unknown> = {}): Logger {
  const threshold = levels[level];
  const write = (entryLevel: LogLevel, message: string, fields?: Record<string, unknown>) => {
    if (levels[entryLevel] < threshold) return;
    console.error(JSON.stringify({ time: new Date().toISOString(), level: entryLevel, message, ...bindings, ...fields }));
  };
  return {
    debug: (message, fields) => write('debug', message, fields),
    info: (message, fields) => write('info', message, fields),
    warn: (message, fields) => write('warn', message, fields),
    error: (message, fields) => write('error', message, fields),
    child: (more) => createConsoleLogger(level, { ...bindings, ...more }),
  };
}
