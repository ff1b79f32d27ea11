/** "Download log": reads a run's whole stored log (`log-stream?after=0` up to the live point or the end) and saves it as a text file. */
import { followTaskLog, type FollowOptions } from './log-stream';

export interface StoredLogOptions {
  taskId: string;
  fetch: FollowOptions['fetch'];
  signal: AbortSignal;
  /** Lines read so far, now and then. */
  onProgress?: (lines: number) => void;
}

/** The stored log as printed, one string per line ending in a newline. Throws with the stream's message on failure. */
export async function fetchStoredLog(options: StoredLogOptions): Promise<string[]> {
  const parts: string[] = [];
  let failure: string | null = null;
  let reported = 0;
  const outcome = await followTaskLog({
    taskId: options.taskId,
    fetch: options.fetch,
    signal: options.signal,
    after: 0,
    stopWhenLive: true,
    isLive: () => false,
    onLines: (lines) => {
      for (const line of lines) parts.push(`${line.text}\n`);
      if (options.onProgress && parts.length - reported >= 5000) {
        reported = parts.length;
        options.onProgress(parts.length);
      }
    },
    onStatus: (status) => {
      if (status.phase === 'failed') failure = status.message;
    },
  });
  if (outcome === 'aborted') throw new DOMException('The download was stopped.', 'AbortError');
  if (outcome === 'error') throw new Error(failure ?? 'the log stream failed');
  return parts;
}

/** Saves text parts as a file through a temporary Blob link. */
export function saveTextFile(parts: readonly string[], fileName: string): void {
  const blob = new Blob(parts as string[], { type: 'text/plain;charset=utf-8' });
  const url = URL.createObjectURL(blob);
  const link = document.createElement('a');
  link.href = url;
  link.download = fileName;
  link.rel = 'noopener';
  link.style.display = 'none';
  document.body.append(link);
  link.click();
  link.remove();
  // Give the browser time to start reading the Blob before it is released.
  window.setTimeout(() => URL.revokeObjectURL(url), 60_000);
}

export async function downloadStoredLog(options: StoredLogOptions & { fileName: string }): Promise<void> {
  const parts = await fetchStoredLog(options);
  if (!options.signal.aborted) saveTextFile(parts, options.fileName);
}
