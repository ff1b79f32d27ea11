/**
 * A task's figures per endpoint, merged across machines from histograms, for thresholds that name an endpoint. An
 * endpoint the run has no figures for reads `{actual: null, ok: false}` at the end.
 */
import type { RunFigures } from '../../domain/metrics/merge-summaries.ts';
import { runEndpointFigures } from '../metrics/run-endpoints.ts';
import type { Sql } from '../sql.ts';

export type EndpointFigures = (sql: Sql, taskId: string) => Promise<ReadonlyMap<string, RunFigures>>;

export const endpointFiguresOf: EndpointFigures = runEndpointFigures;
