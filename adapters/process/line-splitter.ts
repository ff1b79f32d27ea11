/** Splits a byte stream into UTF-8 text lines: partial lines wait for their end, overlong lines are cut with a marker. */

/** 64 KiB of text: a tool that prints a megabyte on one line must not make the agent buffer (and ship) all of it. */
export const defaultMaxLineLength = 64 * 1024;

export const cutMarker = (max: number) => ` …[line cut at ${max} characters]`;

export class LineSplitter {
  // `stream: true` keeps a multi-byte character split across two chunks intact.
  private readonly decoder = new TextDecoder('utf-8', { fatal: false });
  private pending = '';
  /** Inside an overlong line that was already emitted (cut): drop text until its newline. */
  private discarding = false;

  constructor(
    private readonly onLine: (line: string) => void,
    private readonly maxLength = defaultMaxLineLength,
  ) {}

  push(chunk: Uint8Array | string): void {
    this.feed(typeof chunk === 'string' ? chunk : this.decoder.decode(chunk, { stream: true }));
  }

  /** The stream ended: a last line without a newline is still a line. */
  end(): void {
    this.feed(this.decoder.decode());
    if (!this.discarding && this.pending.length > 0) this.emit(this.pending);
    this.pending = '';
    this.discarding = false;
  }

  private feed(text: string): void {
    let start = 0;
    for (;;) {
      const newline = text.indexOf('\n', start);
      if (newline < 0) break;
      const piece = text.slice(start, newline);
      start = newline + 1;
      if (this.discarding) {
        this.discarding = false;
        continue;
      }
      this.emit(this.pending + piece);
      this.pending = '';
    }
    if (this.discarding) return;
    this.pending += text.slice(start);
    if (this.pending.length > this.maxLength) {
      this.emit(this.pending);
      this.pending = '';
      this.discarding = true;
    }
  }

  private emit(line: string): void {
    // CRLF output (Windows-built tools, some scripts) should not leave a stray \r in the log.
    let text = line.endsWith('\r') ? line.slice(0, -1) : line;
    if (text.length > this.maxLength) text = text.slice(0, this.maxLength) + cutMarker(this.maxLength);
    this.onLine(text);
  }
}
