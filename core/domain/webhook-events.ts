/**
 * The spec's webhook events and their envelope, built from outbox rows. A cancelled run sends `test.failed` with
 * `status: "cancelled"`: the spec's three events leave cancellation unnamed and the status carried by test.failed
 * open, and a receiver that saw test.started must learn that the run ended; it filters on `data.status` if it cares.
 */

export const webhookEvents = ['test.started', 'test.completed', 'test.failed'] as const;
export type WebhookEvent = (typeof webhookEvents)[number];
export type EnvelopeEvent = WebhookEvent | 'test.ping';

export const isWebhookEvent = (value: string): value is WebhookEvent => (webhookEvents as readonly string[]).includes(value);

export interface OutboxRow {
  id: string | number;
  workspace_id: string;
  event: string;
  task_id: string | null;
  payload: Record<string, unknown>;
  created_at: Date | string;
}

export interface Envelope {
  id: string;
  event: EnvelopeEvent;
  created_at: string;
  tenant_id: string;
  data: Record<string, unknown>;
}

/** The event an outbox row stands for, with its data; null for rows webhooks do not report. */
export function eventOfOutboxRow(row: OutboxRow, publicUrl: string): { event: WebhookEvent; data: Record<string, unknown> } | null {
  const p = row.payload;
  const machineIds = Array.isArray(p.machine_ids) ? (p.machine_ids as string[]) : [];
  const base = {
    task_id: row.task_id,
    test_id: p.test_id ?? null,
    // The spec names one machine; a run on several also lists them all.
    machine_id: machineIds[0] ?? null,
    machine_ids: machineIds,
  };
  if (row.event === 'run.started') return { event: 'test.started', data: base };
  if (row.event !== 'run.finished') return null;
  const status = String(p.status);
  return {
    event: status === 'completed' ? 'test.completed' : 'test.failed',
    data: {
      ...base,
      status,
      duration_ms: typeof p.duration_ms === 'number' ? Math.round(p.duration_ms) : 0,
      log_url: `${publicUrl}/api/v1/tasks/${row.task_id}/log-stream`,
      // The thresholds' verdict: passed, failed, or null (no thresholds, a cancelled run, rows from before thresholds).
      verdict: p.verdict === 'passed' || p.verdict === 'failed' ? p.verdict : null,
      ...(status === 'completed' ? {} : { error: p.error ?? null }),
    },
  };
}

/** The raw body sent for an event: serialised once and stored, so every attempt and every endpoint sends the same bytes. */
export function envelopeBody(envelope: Envelope): string {
  return JSON.stringify(envelope);
}
