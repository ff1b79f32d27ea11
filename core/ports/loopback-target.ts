/**
 * The loopback-target port: a tiny HTTP server the agent's host starts on 127.0.0.1 (any free port), answering every
 * request 200 `ok`, for the agent to calibrate against. The core cannot open a listening socket itself (no runtime API
 * for it is web-standard), so the host provides one.
 */
export interface LoopbackTarget {
  /** Its origin, e.g. http://127.0.0.1:41234. */
  url: string;
  stop(): Promise<void>;
}

export type StartLoopbackTarget = () => Promise<LoopbackTarget>;
