/** One line of the JTL CSV the command asks for: `timeStamp,elapsed,success` (ms since epoch, ms, true/false). */

export interface JtlSample {
  /** When the sample started (`sampleresult.timestamp.start=true` in the jmeter.properties JMeter ships). */
  startedAt: number;
  elapsedMs: number;
  success: boolean;
}

const sampleLine = /^(\d{10,16}),(\d+),(true|false)\r?$/;

/** The sample, or null for anything else (a log line that reached stdout). */
export function parseJtlLine(line: string): JtlSample | null {
  const match = sampleLine.exec(line);
  if (!match) return null;
  return { startedAt: Number(match[1]), elapsedMs: Number(match[2]), success: match[3] === 'true' };
}
