/**
 * StagesPreview({ stages } | { vus, duration }): a small inline SVG of a load configuration's shape (VUs over time):
 * stages ramp linearly from 0 to each target in turn; vus + duration hold one level. Labelled for screen readers.
 */
import './charts.css';

export type StagesPreviewProps = { stages: { duration: string | number; target: number }[] } | { vus: number; duration: string | number };

const UNITS: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600, d: 86_400 };

/** Seconds of a duration such as 30, "30s", "5m", "1h30m", "250ms"; null when it cannot be read. */
export function parseDurationSeconds(duration: string | number): number | null {
  if (typeof duration === 'number') return Number.isFinite(duration) && duration >= 0 ? duration : null;
  const text = duration.trim();
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const parts = [...text.matchAll(/(\d+(?:\.\d+)?)\s*(ms|s|m|h|d)/g)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('').replace(/\s/g, '') !== text.replace(/\s/g, '')) return null;
  return parts.reduce((total, part) => total + Number(part[1]) * UNITS[part[2]!]!, 0);
}

/** "45 s", "2 min", "1 h 30 min". */
export function formatSeconds(seconds: number): string {
  if (seconds < 60) return `${Math.round(seconds * 10) / 10} s`;
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = Math.round(seconds % 60);
  return [h ? `${h} h` : '', m ? `${m} min` : '', s ? `${s} s` : ''].filter(Boolean).join(' ');
}

/** The shape's points [seconds, VUs], from (0, 0) on, or null when a duration cannot be read. */
export function shapePoints(props: StagesPreviewProps): [number, number][] | null {
  if ('stages' in props) {
    const points: [number, number][] = [[0, 0]];
    let t = 0;
    for (const stage of props.stages) {
      const seconds = parseDurationSeconds(stage.duration);
      if (seconds === null) return null;
      t += seconds;
      points.push([t, Math.max(0, Number(stage.target) || 0)]);
    }
    return points;
  }
  const seconds = parseDurationSeconds(props.duration);
  if (seconds === null) return null;
  const vus = Math.max(0, Number(props.vus) || 0);
  return [
    [0, vus],
    [seconds, vus],
  ];
}

export function describeShape(points: [number, number][]): string {
  const total = points[points.length - 1]![0];
  const peak = Math.max(...points.map((p) => p[1]));
  if (points.length === 2 && points[0]![1] === points[1]![1]) return `${peak} VUs for ${formatSeconds(total)}`;
  const steps = points.slice(1).map((point, i) => `${point[1]} VUs over ${formatSeconds(point[0] - points[i]![0])}`);
  return `Ramps to ${steps.join(', then ')}; peak ${peak} VUs, ${formatSeconds(total)} in all`;
}

export function StagesPreview(props: StagesPreviewProps & { width?: number; height?: number }) {
  const width = props.width ?? 240;
  const height = props.height ?? 64;
  const points = shapePoints(props);
  if (!points || points.length < 2) {
    return <span className="muted">No preview: a duration could not be read.</span>;
  }
  const total = Math.max(points[points.length - 1]![0], 1e-9);
  const peak = Math.max(1, ...points.map((p) => p[1]));
  const left = 28;
  const bottom = height - 14;
  const top = 6;
  const right = width - 6;
  const x = (t: number) => left + (t / total) * (right - left);
  const y = (v: number) => bottom - (v / peak) * (bottom - top);
  const path = points.map(([t, v], i) => `${i === 0 ? 'M' : 'L'}${x(t).toFixed(1)},${y(v).toFixed(1)}`).join(' ');
  const area = `${path} L${x(total).toFixed(1)},${bottom} L${x(0).toFixed(1)},${bottom} Z`;
  const label = describeShape(points);
  return (
    <svg className="stage-preview" viewBox={`0 0 ${width} ${height}`} width={width} height={height} role="img" aria-label={label}>
      <title>{label}</title>
      <line className="axis" x1={left} y1={bottom} x2={right} y2={bottom} />
      <line className="axis" x1={left} y1={top} x2={left} y2={bottom} />
      <path d={area} fill="currentColor" fillOpacity={0.15} stroke="none" />
      <path d={path} fill="none" stroke="currentColor" strokeWidth={2} strokeLinejoin="round" />
      <text x={left - 4} y={top + 8} textAnchor="end">
        {peak}
      </text>
      <text x={left - 4} y={bottom} textAnchor="end">
        0
      </text>
      <text x={right} y={height - 2} textAnchor="end">
        {formatSeconds(points[points.length - 1]![0])}
      </text>
    </svg>
  );
}

export default StagesPreview;
