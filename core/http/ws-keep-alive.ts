/**
 * Keep-alive of the service's WebSockets (task streams and agent sockets): a ping every interval, and a socket whose
 * last pong (or opening) is older than the stale limit is closed with 1001 `no pong`, so a vanished peer (a dead TCP
 * connection the kernel has not noticed) does not hold a stream or keep a machine online.
 */

export interface WsKeepAlive {
  /** How often the server pings (the spec: about every 30 s). */
  pingMillis: number;
  /** A socket with no pong for longer than this is cut at the next ping tick. */
  staleMillis: number;
}

// No pong for two ping intervals (and some slack for a slow network): the client is gone.
export const defaultWsKeepAlive: WsKeepAlive = { pingMillis: 30_000, staleMillis: 65_000 };

/** The close code and reason of a socket cut for a stale pong (1001: the peer is "going away"). */
export const staleClose = { code: 1001, reason: 'no pong' } as const;

interface PingableSocket {
  ping(): unknown;
  close(code: number, reason: string): unknown;
}

/**
 * Starts pinging `socket`; call `pong()` from the route's pong handler and `stop()` when the socket closes.
 * The route must handle pongs itself: Elysia takes Bun's `idleTimeout`/`sendPings` from the app only, never per route.
 */
export function startKeepAlive(socket: PingableSocket, settings: WsKeepAlive = defaultWsKeepAlive) {
  let lastPong = Date.now();
  const timer = setInterval(() => {
    if (Date.now() - lastPong > settings.staleMillis) {
      clearInterval(timer);
      socket.close(staleClose.code, staleClose.reason);
      return;
    }
    socket.ping();
  }, settings.pingMillis);
  return {
    pong() {
      lastPong = Date.now();
    },
    stop() {
      clearInterval(timer);
    },
  };
}

export type KeepAlive = ReturnType<typeof startKeepAlive>;
