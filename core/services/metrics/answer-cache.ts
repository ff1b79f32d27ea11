/**
 * Answers of metric reads kept in memory while the rows they were computed from have not changed: each entry carries
 * the version of its rows (a run's change counter, a count and the newest id, or sums that grow with every write), read
 * by a cheap query, so a finished run's charts are computed once and a live run's are never stale. Bounded by an
 * estimate of bytes, least recently used out first. Each replica keeps its own; nothing in it is ever the only copy.
 */

export interface AnswerCache {
  /** The answer stored under `key` when it was computed from rows of this `version`; undefined otherwise. */
  get<T>(key: string, version: string): T | undefined;
  /** Keeps `value` (about `bytes` large) for `key` at `version`, replacing an older version's. */
  set(key: string, version: string, value: unknown, bytes: number): void;
  /** Entries and their estimated bytes (tests, benchmarks). */
  readonly size: { entries: number; bytes: number };
}

interface Entry {
  version: string;
  value: unknown;
  bytes: number;
}

export function createAnswerCache(options: { maxBytes: number; maxEntryBytes?: number }): AnswerCache {
  const entries = new Map<string, Entry>();
  let bytes = 0;
  const maxEntryBytes = options.maxEntryBytes ?? options.maxBytes / 8;

  const drop = (key: string) => {
    const entry = entries.get(key);
    if (!entry) return;
    entries.delete(key);
    bytes -= entry.bytes;
  };

  return {
    get<T>(key: string, version: string): T | undefined {
      const entry = entries.get(key);
      if (!entry) return undefined;
      if (entry.version !== version) {
        drop(key);
        return undefined;
      }
      // Map order is insertion order: moving the entry to the end keeps the least recently used first.
      entries.delete(key);
      entries.set(key, entry);
      return entry.value as T;
    },
    set(key, version, value, size) {
      drop(key);
      if (size > maxEntryBytes) return;
      entries.set(key, { version, value, bytes: size });
      bytes += size;
      for (const oldest of entries.keys()) {
        if (bytes <= options.maxBytes) break;
        drop(oldest);
      }
    },
    get size() {
      return { entries: entries.size, bytes };
    },
  };
}

/**
 * The service's cache of metric answers: 64 MB at most, no answer over 8 MB. One per process is enough: keys hold the
 * workspace's and the run's UUIDs, so services sharing a process (tests) never read each other's answers.
 */
export const metricAnswers = createAnswerCache({ maxBytes: 64 * 1024 * 1024, maxEntryBytes: 8 * 1024 * 1024 });
