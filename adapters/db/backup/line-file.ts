/**
 * The backup file as lines: written owner-only (0600) under a temporary name and renamed when complete, so an
 * interrupted backup never looks like one; gzip when the name ends in `.gz`. Read back as lines split on `\n` only,
 * gzip recognised by its magic bytes, so a file renamed either way still reads.
 */
import { createReadStream, createWriteStream } from 'node:fs';
import { open, rename, rm } from 'node:fs/promises';
import type { Writable } from 'node:stream';
import { createGunzip, createGzip } from 'node:zlib';

export const BACKUP_FILE_MODE = 0o600;

export interface LineWriter {
  write(line: string): Promise<void>;
  /** Flushes, closes and gives the file its final name. */
  finish(): Promise<void>;
  /** Removes what was written (the backup failed). */
  abort(): Promise<void>;
}

const flushAt = 256 * 1024;

export async function createLineWriter(path: string): Promise<LineWriter> {
  const temporary = `${path}.partial-${process.pid}`;
  // `wx` with the final mode: never an existing file's mode, never a moment at which others can read it.
  const file = createWriteStream(temporary, { flags: 'wx', mode: BACKUP_FILE_MODE });
  await new Promise<void>((resolveOpen, reject) => file.once('open', () => resolveOpen()).once('error', reject));
  const gzip = path.endsWith('.gz') ? createGzip() : null;
  gzip?.pipe(file);
  const sink: Writable = gzip ?? file;
  let failure: Error | null = null;
  for (const stream of [file, gzip]) stream?.on('error', (error) => (failure ??= error));
  let buffer: string[] = [];
  let buffered = 0;

  const flush = async () => {
    if (failure) throw failure;
    if (buffered === 0) return;
    const chunk = buffer.join('');
    buffer = [];
    buffered = 0;
    if (!sink.write(chunk)) await new Promise<void>((drained) => sink.once('drain', drained));
  };
  const closed = new Promise<void>((done, reject) => file.once('close', done).once('error', reject));
  return {
    async write(line) {
      buffer.push(line, '\n');
      buffered += line.length + 1;
      if (buffered >= flushAt) await flush();
    },
    async finish() {
      await flush();
      sink.end();
      await closed;
      if (failure) throw failure;
      // On disk before it carries the final name: a crash right after leaves the whole backup or none.
      const handle = await open(temporary, 'r');
      await handle.sync();
      await handle.close();
      await rename(temporary, path);
    },
    async abort() {
      file.destroy();
      gzip?.destroy();
      await rm(temporary, { force: true });
    },
  };
}

/** The file's lines, decompressed when it is gzip. */
export async function* readLines(path: string): AsyncGenerator<string> {
  const head = await open(path, 'r');
  const magic = Buffer.alloc(2);
  await head.read(magic, 0, 2, 0);
  await head.close();
  const raw = createReadStream(path);
  const input = magic[0] === 0x1f && magic[1] === 0x8b ? raw.pipe(createGunzip()) : raw;
  raw.on('error', (error) => input.destroy(error));
  const decoder = new TextDecoder('utf-8', { fatal: true });
  let rest = '';
  for await (const chunk of input as AsyncIterable<Uint8Array>) {
    rest += decoder.decode(chunk, { stream: true });
    let end = rest.indexOf('\n');
    let start = 0;
    while (end !== -1) {
      yield rest.slice(start, end);
      start = end + 1;
      end = rest.indexOf('\n', start);
    }
    rest = rest.slice(start);
  }
  rest += decoder.decode();
  if (rest.length > 0) yield rest;
}
