/** The x range of a time chart: its data's span, or a minute either side of a single instant (uPlot would pick years). */
export function timeRange(min: number | null, max: number | null): [number | null, number | null] {
  if (min === null || max === null) return [min, max];
  return min === max ? [min - 60, max + 60] : [min, max];
}
