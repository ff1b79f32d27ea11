/**
 * A WebSocket client written on a bare TCP socket (RFC 6455 framing by hand), for keep-alive tests: it counts the
 * server's pings and answers them with pongs only while `answerPings` is true, which no library client lets a test
 * turn off. Records text messages, the server's close frame, and the end of the TCP connection.
 */
import { connect, type Socket } from 'node:net';

export interface RawWebSocket {
  /** Pings received so far. */
  readonly pings: number;
  readonly messages: string[];
  /** The server's close frame, once received. */
  readonly closed: { code: number; reason: string } | null;
  /** The TCP connection ended (after a close frame, or without one). */
  readonly ended: boolean;
  /** Whether pings are answered; may be changed at any time. */
  answerPings: boolean;
  sendText(text: string): void;
  /** Waits until `check` holds, polling every 10 ms; throws with `what` after `timeoutMs`. */
  until(check: () => boolean, what: string, timeoutMs?: number): Promise<void>;
  destroy(): void;
}

/** Opens `url` (http:// or ws://) with these request headers; resolves once the server answered 101. */
export function openRawWebSocket(url: string, headers: Record<string, string>, options: { answerPings: boolean }): Promise<RawWebSocket> {
  const target = new URL(url.replace(/^ws/, 'http'));
  return new Promise((resolve, reject) => {
    const socket: Socket = connect(Number(target.port), target.hostname);
    let buffer = Buffer.alloc(0);
    let upgraded = false;
    const state = { pings: 0, messages: [] as string[], closed: null as { code: number; reason: string } | null, ended: false };

    const frame = (opcode: number, payload: Buffer) => {
      // Client frames are masked (RFC 6455 5.3); a test's messages stay under 64 KiB (a 16-bit length).
      const mask = crypto.getRandomValues(new Uint8Array(4));
      const length = payload.length;
      if (length > 0xffff) throw new Error('raw-websocket sends frames under 64 KiB only');
      const header = length < 126 ? Buffer.from([0x80 | opcode, 0x80 | length]) : Buffer.from([0x80 | opcode, 0x80 | 126, length >> 8, length & 0xff]);
      const masked = Buffer.from(payload.map((byte, i) => byte ^ mask[i % 4]!));
      socket.write(Buffer.concat([header, Buffer.from(mask), masked]));
    };

    const client: RawWebSocket = {
      get pings() {
        return state.pings;
      },
      get messages() {
        return state.messages;
      },
      get closed() {
        return state.closed;
      },
      get ended() {
        return state.ended;
      },
      answerPings: options.answerPings,
      sendText: (text) => frame(0x1, Buffer.from(text, 'utf8')),
      async until(check, what, timeoutMs = 20_000) {
        const deadline = Date.now() + timeoutMs;
        while (!check()) {
          if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms (pings ${state.pings}, closed ${JSON.stringify(state.closed)}, ended ${state.ended})`);
          await Bun.sleep(10);
        }
      },
      destroy: () => socket.destroy(),
    };

    /** Reads every complete frame in the buffer (server frames are never masked). */
    const readFrames = () => {
      for (;;) {
        if (buffer.length < 2) return;
        const opcode = buffer[0]! & 0x0f;
        let length = buffer[1]! & 0x7f;
        let offset = 2;
        if (length === 126) {
          if (buffer.length < 4) return;
          length = buffer.readUInt16BE(2);
          offset = 4;
        } else if (length === 127) {
          if (buffer.length < 10) return;
          length = Number(buffer.readBigUInt64BE(2));
          offset = 10;
        }
        if (buffer.length < offset + length) return;
        const payload = buffer.subarray(offset, offset + length);
        buffer = buffer.subarray(offset + length);
        if (opcode === 0x9) {
          state.pings++;
          if (client.answerPings) frame(0xa, Buffer.from(payload));
        } else if (opcode === 0x1) {
          state.messages.push(payload.toString('utf8'));
        } else if (opcode === 0x8) {
          state.closed = { code: payload.length >= 2 ? payload.readUInt16BE(0) : 1005, reason: payload.subarray(2).toString('utf8') };
        }
      }
    };

    socket.on('connect', () => {
      const lines = [
        `GET ${target.pathname}${target.search} HTTP/1.1`,
        `Host: ${target.host}`,
        'Upgrade: websocket',
        'Connection: Upgrade',
        `Sec-WebSocket-Key: ${Buffer.from(crypto.getRandomValues(new Uint8Array(16))).toString('base64')}`,
        'Sec-WebSocket-Version: 13',
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
      ];
      socket.write(`${lines.join('\r\n')}\r\n\r\n`);
    });
    socket.on('data', (chunk: Buffer) => {
      buffer = Buffer.concat([buffer, chunk]);
      if (!upgraded) {
        const end = buffer.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = buffer.subarray(0, end).toString('latin1');
        buffer = buffer.subarray(end + 4);
        if (!head.startsWith('HTTP/1.1 101')) {
          socket.destroy();
          reject(new Error(`no upgrade: ${head.split('\r\n')[0]}`));
          return;
        }
        upgraded = true;
        resolve(client);
      }
      readFrames();
    });
    socket.on('close', () => {
      state.ended = true;
      if (!upgraded) reject(new Error('the connection closed before the upgrade'));
    });
    socket.on('error', (error) => {
      if (!upgraded) reject(error);
    });
  });
}
