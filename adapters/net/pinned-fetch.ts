/**
 * A fetch on node:http(s) for user-supplied URLs: before every request the URL is checked (the outbound guard) and the
 * connection goes to the address that check allowed, via a pinned `lookup`, so Host, SNI and the certificate keep the
 * URL's name while DNS rebinding cannot swap the address. Redirects are never followed here (the answer comes back as
 * it is, so a caller that follows one asks again, and the new URL is checked again); the body is streamed and cut off
 * past a byte budget.
 */
import http from 'node:http';
import https from 'node:https';
import type { LookupFunction } from 'node:net';
import type { AddressCheck } from '../../core/ports/remote-mcp.ts';

/** The check refused the URL: the message is the guard's reason. */
export class RefusedAddressError extends Error {}

/** The answer passed the byte budget. */
export class AnswerTooLargeError extends Error {}

export interface PinnedFetchOptions {
  check: AddressCheck;
  /** Bytes of one answer's body read at most; past it the body stream fails with AnswerTooLargeError. */
  maxResponseBytes: number;
  /** Aborts every request of this fetch, besides each request's own signal. */
  signal?: AbortSignal;
}

export type PinnedFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

const nullBodyStatuses = new Set([101, 103, 204, 205, 304]);

function bodyBytes(body: RequestInit['body']): Buffer | null {
  if (body === undefined || body === null) return null;
  if (typeof body === 'string') return Buffer.from(body);
  if (body instanceof Uint8Array) return Buffer.from(body);
  if (body instanceof ArrayBuffer) return Buffer.from(new Uint8Array(body));
  // The MCP transport sends JSON strings; anything else is a bug of ours, not a remote's fault.
  throw new TypeError('pinned fetch sends string or byte bodies only');
}

export function createPinnedFetch(options: PinnedFetchOptions): PinnedFetch {
  return async (input, init = {}) => {
    const url = new URL(String(input));
    const signals = [init.signal, options.signal].filter((signal): signal is AbortSignal => Boolean(signal));
    const signal = signals.length ? AbortSignal.any(signals) : undefined;
    signal?.throwIfAborted();
    const verdict = await options.check(url);
    if (!verdict.ok) throw new RefusedAddressError(verdict.reason);
    signal?.throwIfAborted();

    const family = verdict.address.includes(':') ? 6 : 4;
    // Whatever name the client asks for, it gets the address just checked.
    const lookup = ((_hostname: string, lookupOptions: { all?: boolean }, callback: (...args: unknown[]) => void) => {
      if (lookupOptions?.all) callback(null, [{ address: verdict.address, family }]);
      else callback(null, verdict.address, family);
    }) as unknown as LookupFunction;
    const headers: Record<string, string> = {};
    new Headers(init.headers).forEach((value, name) => (headers[name] = value));
    const payload = bodyBytes(init.body);
    if (payload) headers['content-length'] = String(payload.length);
    const client = url.protocol === 'https:' ? https : http;

    return new Promise<Response>((resolve, reject) => {
      const request = client.request(url, { method: init.method ?? 'GET', headers, lookup, agent: false }, (incoming) => {
        const status = incoming.statusCode ?? 0;
        if (status < 200 || status > 599) {
          incoming.destroy();
          reject(new TypeError(`${url.host} answered with HTTP status ${status}`));
          return;
        }
        const responseHeaders = new Headers();
        for (let i = 0; i + 1 < incoming.rawHeaders.length; i += 2) {
          try {
            responseHeaders.append(incoming.rawHeaders[i]!, incoming.rawHeaders[i + 1]!);
          } catch {
            // A header Headers cannot hold is not one the MCP client reads.
          }
        }
        let received = 0;
        let closed = false;
        const body = nullBodyStatuses.has(status)
          ? null
          : new ReadableStream<Uint8Array>({
              start(controller) {
                const fail = (error: Error) => {
                  if (closed) return;
                  closed = true;
                  controller.error(error);
                  incoming.destroy();
                };
                incoming.on('data', (chunk: Buffer) => {
                  if (closed) return;
                  received += chunk.length;
                  if (received > options.maxResponseBytes) {
                    fail(new AnswerTooLargeError(`the answer of ${url.host} is larger than ${options.maxResponseBytes} bytes`));
                    return;
                  }
                  controller.enqueue(new Uint8Array(chunk));
                });
                incoming.on('end', () => {
                  if (closed) return;
                  closed = true;
                  controller.close();
                });
                incoming.on('error', fail);
                incoming.on('close', () => fail(new Error(`the connection to ${url.host} closed before the answer ended`)));
              },
              cancel() {
                closed = true;
                incoming.destroy();
              },
            });
        if (!body) incoming.resume();
        resolve(new Response(body, { status, statusText: incoming.statusMessage ?? '', headers: responseHeaders }));
      });
      const abort = () => request.destroy(signal?.reason instanceof Error ? signal.reason : new DOMException('aborted', 'AbortError'));
      signal?.addEventListener('abort', abort, { once: true });
      const release = () => signal?.removeEventListener('abort', abort);
      request.on('response', (incoming) => incoming.on('close', release));
      request.on('error', (error) => {
        release();
        reject(error);
      });
      request.end(payload ?? undefined);
    });
  };
}
