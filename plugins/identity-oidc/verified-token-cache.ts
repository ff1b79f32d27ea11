/** A bounded cache of verified tokens, each kept only until its own expiry, so warm requests skip signature checks. */

interface Entry<T> {
  value: T;
  expiresAtMs: number;
}

export interface VerifiedTokenCache<T> {
  get(key: string): T | undefined;
  /** Ignored when `expiresAtMs` has already passed. */
  set(key: string, value: T, expiresAtMs: number): void;
  readonly size: number;
}

/** Map keeps insertion order: the first key is the oldest entry, evicted when the cache is full. */
export function createVerifiedTokenCache<T>(maxEntries: number, now: () => number = Date.now): VerifiedTokenCache<T> {
  const entries = new Map<string, Entry<T>>();
  return {
    get(key) {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.expiresAtMs <= now()) {
        entries.delete(key);
        return undefined;
      }
      return entry.value;
    },
    set(key, value, expiresAtMs) {
      if (expiresAtMs <= now() || maxEntries <= 0) return;
      entries.delete(key);
      while (entries.size >= maxEntries) entries.delete(entries.keys().next().value as string);
      entries.set(key, { value, expiresAtMs });
    },
    get size() {
      return entries.size;
    },
  };
}
