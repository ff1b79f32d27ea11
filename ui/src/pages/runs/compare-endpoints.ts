/** Two runs compared per endpoint: p95 and requests of each, side by side with the relative change, matched by name. */
import type { TaskEndpoint } from '../../api/types';
import { comparedFigures, relativeChange, verdictOf, type Verdict } from './compare-figures';

export interface EndpointFigures {
  p95: number;
  requests: number;
}

export interface EndpointComparison {
  name: string;
  /** null when the base run has no such endpoint. */
  base: EndpointFigures | null;
  /** null when this run has no such endpoint. */
  current: EndpointFigures | null;
  p95Change: number | null;
  p95Verdict: Verdict;
  requestsChange: number | null;
}

const p95Figure = comparedFigures.find((figure) => figure.key === 'p95')!;

/** Every endpoint of either run: this run's in its order (by requests), then those only the base run has. */
export function compareEndpoints(base: readonly TaskEndpoint[], current: readonly TaskEndpoint[]): EndpointComparison[] {
  const baseByName = new Map(base.map((endpoint) => [endpoint.name, endpoint]));
  const names = [...current.map((e) => e.name), ...base.map((e) => e.name).filter((name) => !current.some((e) => e.name === name))];
  const currentByName = new Map(current.map((endpoint) => [endpoint.name, endpoint]));
  return names.map((name) => {
    const b = baseByName.get(name);
    const c = currentByName.get(name);
    const both = b !== undefined && c !== undefined;
    return {
      name,
      base: b ? { p95: b.p95, requests: b.requests } : null,
      current: c ? { p95: c.p95, requests: c.requests } : null,
      p95Change: both ? relativeChange(b.p95, c.p95) : null,
      p95Verdict: both ? verdictOf(p95Figure, b.p95, c.p95) : 'same',
      requestsChange: both ? relativeChange(b.requests, c.requests) : null,
    };
  });
}
