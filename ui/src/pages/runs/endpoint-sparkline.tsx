/** EndpointSparkline({ minutes }): a small inline line of an endpoint's requests/s per minute; decoration only (aria-hidden), the row's numbers say it. */
import { sparklinePoints, type EndpointMinute } from './endpoint-timeline';

const WIDTH = 64;
const HEIGHT = 18;

export function EndpointSparkline({ minutes }: { minutes: readonly EndpointMinute[] }) {
  const points = sparklinePoints(
    minutes.map((minute) => minute.requests_per_sec),
    WIDTH,
    HEIGHT,
  );
  if (!points) return null;
  return (
    <svg className="sparkline" width={WIDTH} height={HEIGHT} viewBox={`0 0 ${WIDTH} ${HEIGHT}`} aria-hidden="true" focusable="false">
      <polyline points={points} fill="none" stroke="currentColor" strokeWidth={1.5} strokeLinejoin="round" strokeLinecap="round" />
    </svg>
  );
}
