/** Follows a growing file (a tool's sample output) line by line by polling its size; `stop()` reads what remains. */
import { open, type FileHandle } from 'node:fs/promises';
import { defaultMaxLineLength, LineSplitter } from './line-splitter.ts';

export interface TailOptions {
  /** Polling keeps working where inotify does not (overlay and network file systems); 100 ms is cheap and timely enough. */
  pollMs?: number;
  maxLineLength?: number;
  /** Bytes read per read call; a busy tool may append megabytes per second. */
  chunkBytes?: number;
}

export function tailFile(path: string, onLine: (line: string) => void, options: TailOptions = {}): { stop(): Promise<void> } {
  const pollMs = options.pollMs ?? 100;
  const buffer = new Uint8Array(options.chunkBytes ?? 256 * 1024);
  const splitter = new LineSplitter(onLine, options.maxLineLength ?? defaultMaxLineLength);
  let handle: FileHandle | null = null;
  let offset = 0;
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  // Reads are chained so a poll and the final drain never read the same bytes twice.
  let reading: Promise<void> = Promise.resolve();

  async function readNew(): Promise<void> {
    if (!handle) {
      try {
        handle = await open(path, 'r');
      } catch {
        return; // not created yet: the tool opens it when it starts writing
      }
    }
    const { size } = await handle.stat();
    if (size < offset) offset = 0; // truncated and rewritten: start over
    while (offset < size) {
      const { bytesRead } = await handle.read(buffer, 0, Math.min(buffer.length, size - offset), offset);
      if (bytesRead === 0) break;
      offset += bytesRead;
      splitter.push(buffer.subarray(0, bytesRead));
    }
  }

  function schedule() {
    if (stopped) return;
    timer = setTimeout(() => {
      reading = reading.then(readNew).catch(() => {}).then(schedule);
    }, pollMs);
  }

  schedule();

  return {
    async stop() {
      if (stopped) return reading;
      stopped = true;
      if (timer) clearTimeout(timer);
      reading = reading
        .then(readNew)
        .catch(() => {})
        .then(async () => {
          splitter.end();
          await handle?.close().catch(() => {});
          handle = null;
        });
      return reading;
    },
  };
}
