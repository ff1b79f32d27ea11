/** Plugin config slices merged in order, later over earlier, nested objects key by key (a list is replaced whole). */

type Slices = Readonly<Record<string, Readonly<Record<string, unknown>>>>;

const isPlainObject = (value: unknown): value is Record<string, unknown> =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

function mergeValues(base: unknown, over: unknown): unknown {
  if (!isPlainObject(base) || !isPlainObject(over)) return over;
  const merged: Record<string, unknown> = { ...base };
  for (const [key, value] of Object.entries(over)) merged[key] = key in merged ? mergeValues(merged[key], value) : value;
  return merged;
}

/** E.g. what the service derives, then a test's overrides, then the operator's settings: the operator wins. */
export function mergeSlices(...layers: readonly (Slices | undefined)[]): Record<string, Record<string, unknown>> {
  const merged: Record<string, Record<string, unknown>> = {};
  for (const layer of layers) {
    for (const [name, slice] of Object.entries(layer ?? {})) merged[name] = mergeValues(merged[name] ?? {}, slice) as Record<string, unknown>;
  }
  return merged;
}
