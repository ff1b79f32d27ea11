/**
 * The service-gauges capability: a plugin's own figures in GET /metrics (the operator's Prometheus exposition), read at
 * each scrape: gauge families of its own, and the work its queues hold (as `loadplane_job_queue_depth{queue}`).
 */
import { defineCapability } from '../kernel/define-capability.ts';

export interface GaugeFamily {
  /** `loadplane_` and snake case, e.g. `loadplane_webhook_deliveries`. */
  name: string;
  help: string;
  samples: [labels: Record<string, string>, value: number][];
}

export interface ServiceGauges {
  /** Unique name, for diagnostics. */
  name: string;
  /** Across every workspace: this is for the operator. */
  read(): Promise<{ gauges: GaugeFamily[]; queues: Record<string, number> }>;
}

export const serviceGaugesCapability = defineCapability<ServiceGauges>({
  id: 'core.serviceGauges',
  cardinality: 'many',
  key: (entry) => entry.name,
});
