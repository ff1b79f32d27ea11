/**
 * Counts failed API-token lookups per client address in a one-minute window, in memory: a random `psk_` token with a valid
 * checksum costs a database query, so past the limit an address is refused before any query is made. Kept per replica
 * on purpose: recording each failure in the database would cost the very query the limit exists to save.
 */
import { addressKey } from '../domain/ip-address.ts';

export interface FailedLookupLimiterOptions {
  /** Failures allowed per address and window; the next request is refused until the window ends. */
  limit?: number;
  windowMillis?: number;
  /** Addresses remembered at most (an attacker with many addresses cannot grow memory without bound). */
  maxAddresses?: number;
  now?: () => number;
}

export interface FailedLookupLimiter {
  /** Seconds until `address` may try again, or 0 when it is not blocked. */
  retryAfterSeconds(address: string): number;
  recordFailure(address: string): void;
}

interface Window {
  start: number;
  failures: number;
}

export function createFailedLookupLimiter(options: FailedLookupLimiterOptions = {}): FailedLookupLimiter {
  const limit = options.limit ?? 20;
  const windowMillis = options.windowMillis ?? 60_000;
  const maxAddresses = options.maxAddresses ?? 50_000;
  const now = options.now ?? Date.now;
  const windows = new Map<string, Window>();

  const current = (key: string): Window | null => {
    const window = windows.get(key);
    if (!window) return null;
    if (now() - window.start >= windowMillis) {
      windows.delete(key);
      return null;
    }
    return window;
  };

  /** Windows sit in the map in the order they started: drop from the front what has ended, then the oldest if still full. */
  function makeRoom() {
    const at = now();
    for (const [key, window] of windows) {
      if (windows.size < maxAddresses && at - window.start < windowMillis) break;
      windows.delete(key);
    }
  }

  return {
    retryAfterSeconds(address) {
      const window = current(addressKey(address));
      if (!window || window.failures < limit) return 0;
      return Math.max(1, Math.ceil((window.start + windowMillis - now()) / 1000));
    },
    recordFailure(address) {
      const key = addressKey(address);
      const window = current(key);
      if (window) {
        window.failures++;
        return;
      }
      if (windows.size >= maxAddresses) makeRoom();
      windows.set(key, { start: now(), failures: 1 });
    },
  };
}
