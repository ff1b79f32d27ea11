/** k6's logfmt log lines (`time="..." level=info msg="..." source=console`) made readable: `info: ...`. */

export interface K6LogLine {
  level: string;
  message: string;
  /** The remaining fields as k6 printed them (`executor=... scenario=...`), without `source=console`. */
  fields: string;
}

const logfmt = /^time="[^"]*" level=(\w+) msg=("(?:[^"\\]|\\.)*"|\S*)(.*)$/;

function unquote(value: string): string {
  if (!value.startsWith('"')) return value;
  try {
    // logrus quotes with Go's %q, which agrees with JSON for everything k6 prints in practice.
    return JSON.parse(value) as string;
  } catch {
    return value.slice(1, -1);
  }
}

export function parseK6LogLine(line: string): K6LogLine | null {
  const match = logfmt.exec(line);
  if (!match) return null;
  const fields = match[3]!.replace(/\s*\bsource=console\b/, '').trim();
  return { level: match[1]!, message: unquote(match[2]!), fields };
}

export function formatK6LogLine(log: K6LogLine): string {
  return `${log.level}: ${log.message}${log.fields ? ` ${log.fields}` : ''}`;
}
