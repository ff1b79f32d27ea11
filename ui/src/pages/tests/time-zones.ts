/** The time zones to choose from: the runtime's IANA zones with UTC and the browser's own, sorted; and the browser's zone. */

export function browserTimeZone(): string {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
  } catch {
    return 'UTC';
  }
}

export function supportedTimeZones(): string[] {
  const intl = Intl as typeof Intl & { supportedValuesOf?: (key: 'timeZone') => string[] };
  try {
    return intl.supportedValuesOf?.('timeZone') ?? [];
  } catch {
    return [];
  }
}

/** UTC first, then every other zone once, sorted; `extra` (the browser's zone, a schedule's zone) always included. */
export function timeZoneOptions(supported: readonly string[], ...extra: string[]): string[] {
  const zones = new Set([...supported, ...extra.filter(Boolean)]);
  zones.delete('UTC');
  return ['UTC', ...[...zones].sort((a, b) => a.localeCompare(b))];
}
