/** Incremental Server-Sent Events parser: feed it decoded text chunks split anywhere, get events and comments back. */

/** One dispatched `data:` event, or one comment line (`: text`). */
export type SseMessage =
  | { kind: 'event'; event: string; data: string; id: string | null }
  | { kind: 'comment'; text: string };

/**
 * Parses the text/event-stream format (WHATWG HTML, "Server-sent events"): lines end in CRLF, LF or CR; an empty line
 * dispatches the event; `id:` sets the last event id (kept across events, as EventSource does); `:` starts a comment.
 */
export class SseParser {
  private partial = '';
  private skipLeadingLf = false;
  private dataLines: string[] = [];
  private eventName = '';
  private hasData = false;
  /** The last `id:` seen (null until one arrives). */
  lastEventId: string | null = null;

  /** Feeds one chunk; returns the messages it completed, in order. */
  push(chunk: string): SseMessage[] {
    const out: SseMessage[] = [];
    let text = chunk;
    if (this.skipLeadingLf) {
      this.skipLeadingLf = false;
      if (text.startsWith('\n')) text = text.slice(1);
    }
    let start = 0;
    const length = text.length;
    // Positions of the next LF and CR, searched again only once passed (a chunk without CR is scanned once, not per line).
    let lf = -2;
    let cr = -2;
    while (start < length) {
      if (lf !== -1 && lf < start) lf = text.indexOf('\n', start);
      if (cr !== -1 && cr < start) cr = text.indexOf('\r', start);
      let end: number;
      if (cr !== -1 && (lf === -1 || cr < lf)) end = cr;
      else if (lf !== -1) end = lf;
      else break;
      let line = text.slice(start, end);
      if (this.partial) {
        line = this.partial + line;
        this.partial = '';
      }
      if (text.charCodeAt(end) === 13 /* \r */) {
        if (end + 1 < length) {
          start = text.charCodeAt(end + 1) === 10 ? end + 2 : end + 1;
        } else {
          start = end + 1;
          this.skipLeadingLf = true; // a CRLF split between two chunks
        }
      } else {
        start = end + 1;
      }
      this.line(line, out);
    }
    if (start < length) this.partial += text.slice(start);
    return out;
  }

  /** Drops any half-read event (e.g. before reconnecting); keeps lastEventId. */
  reset(): void {
    this.partial = '';
    this.skipLeadingLf = false;
    this.dataLines = [];
    this.eventName = '';
    this.hasData = false;
  }

  private line(line: string, out: SseMessage[]): void {
    if (line === '') {
      if (this.hasData) {
        out.push({ kind: 'event', event: this.eventName || 'message', data: this.dataLines.join('\n'), id: this.lastEventId });
      }
      this.dataLines = [];
      this.eventName = '';
      this.hasData = false;
      return;
    }
    if (line.charCodeAt(0) === 58 /* : */) {
      out.push({ kind: 'comment', text: line.charCodeAt(1) === 32 ? line.slice(2) : line.slice(1) });
      return;
    }
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.charCodeAt(0) === 32) value = value.slice(1);
    switch (field) {
      case 'data':
        this.dataLines.push(value);
        this.hasData = true;
        break;
      case 'event':
        this.eventName = value;
        break;
      case 'id':
        if (!value.includes('\0')) this.lastEventId = value;
        break;
      default:
        // `retry:` and unknown fields are ignored.
        break;
    }
  }
}
