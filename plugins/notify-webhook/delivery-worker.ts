/**
 * The webhook delivery worker: fans the outbox out into deliveries (under this channel's own cursor), claims due deliveries under a lease (SKIP LOCKED,
 * so two workers or replicas never take the same attempt), checks the URL again, signs, sends, and records the
 * attempt with the retry schedule. A worker that dies mid-attempt leaves its lease to expire; the next collector then
 * sends again (the only case of a duplicate).
 */
import {
  coalescingPass,
  type Database,
  formatIp,
  type Logger,
  nextAttemptAfterFailure,
  type OutboundUrlGuard,
  type OutboxFeed,
  type SecretBox,
  signatureHeader,
  sqlOf,
  type WebhookPostResult,
  type WebhookTransport,
} from 'loadplane/plugin';
import { fanOutOutbox } from './outbox-fanout.ts';

export interface DeliveryWorkerOptions {
  db: Database;
  /** The run events after this channel's cursor. */
  outbox: OutboxFeed;
  guard: OutboundUrlGuard;
  transport: WebhookTransport;
  secrets: SecretBox;
  publicUrl: string;
  logger: Logger;
  /** The clock of attempts and schedules (tests move it). */
  now?: () => Date;
  /** How long a claim holds (default 30 s, three send timeouts): only a dead or frozen worker loses it. */
  leaseMillis?: number;
  timeoutMillis?: number;
  /** Deliveries claimed and sent at once. */
  batch?: number;
  userAgent?: string;
}

interface Claimed {
  id: string;
  /** Attempts made before this one; the lease keeps anyone else from changing it meanwhile. */
  attempts: number;
  webhook_id: string;
  event: string;
  url: string;
  secret_box: string;
  body: string;
}

export const maxResponseExcerptBytes = 2048;

const taskOf = (body: string): string | null => {
  const data = (JSON.parse(body) as { data?: { task_id?: unknown } }).data;
  return typeof data?.task_id === 'string' ? data.task_id : null;
};

/** Outcome of one attempt as stored: success only for a 2xx answer; redirects are not followed and count as failures. */
export function judge(result: WebhookPostResult, timeoutMillis: number): { ok: boolean; status: number | null; error: string | null; excerpt: string | null } {
  if (result.kind === 'timeout') return { ok: false, status: null, error: `no answer within ${timeoutMillis / 1000} s`, excerpt: null };
  if (result.kind === 'error') return { ok: false, status: null, error: `connection error: ${result.message}`, excerpt: null };
  // PostgreSQL text cannot hold NUL; an excerpt is for reading, not a faithful copy.
  const excerpt = result.excerpt.replaceAll('\u0000', '\uFFFD') || null;
  if (result.status >= 200 && result.status < 300) return { ok: true, status: result.status, error: null, excerpt };
  const error = result.status >= 300 && result.status < 400 ? `redirect (${result.status}) not followed` : `answered ${result.status}`;
  return { ok: false, status: result.status, error, excerpt };
}

export function createDeliveryWorker(options: DeliveryWorkerOptions) {
  const now = options.now ?? (() => new Date());
  const leaseMillis = options.leaseMillis ?? 30_000;
  const timeoutMillis = options.timeoutMillis ?? 10_000;
  const batch = options.batch ?? 100;
  const userAgent = options.userAgent ?? 'Loadplane-Webhooks/1';
  const db = options.db;
  let stopped = false;

  async function claim(): Promise<{ leaseId: string; rows: Claimed[] }> {
    const leaseId = crypto.randomUUID();
    const at = now();
    // One statement: lease the due deliveries (SKIP LOCKED: concurrent collectors take disjoint sets) and read them.
    const rows = await sqlOf(db).all<Claimed>(
      `with claimed as (
         update webhook_deliveries set lease_id = ?, lease_until = ?
         where id in (
           select d.id from webhook_deliveries d join webhooks w on w.id = d.webhook_id
           where d.state = 'waiting' and d.next_attempt_at <= ? and (d.lease_until is null or d.lease_until < ?)
             and (w.enabled or d.event = 'test.ping')
           order by d.next_attempt_at, d.id limit ? for update of d skip locked)
         returning id, attempts, webhook_id, event, event_id)
       select c.id, c.attempts, c.webhook_id, c.event, w.url, w.secret_box, e.body
       from claimed c join webhooks w on w.id = c.webhook_id join webhook_events e on e.id = c.event_id
       order by e.outbox_id nulls last, e.created_at, c.id`,
      [leaseId, new Date(at.getTime() + leaseMillis), at, at, batch],
    );
    return { leaseId, rows };
  }

  async function attempt(delivery: Claimed, leaseId: string): Promise<void> {
    const attemptedAt = now();
    const started = performance.now();
    let verdict: ReturnType<typeof judge>;
    const check = await options.guard.check(delivery.url);
    if (!check.ok) {
      // Checked again at every attempt: the name may resolve somewhere refused by now.
      verdict = { ok: false, status: null, error: `refused: ${check.reason}`, excerpt: null };
    } else {
      const secret = await options.secrets.open(delivery.secret_box);
      const signature = await signatureHeader(secret, delivery.body, Math.floor(attemptedAt.getTime() / 1000));
      // Each checked address in turn while the connection itself fails (an unreachable IPv6 answer, say); an answer,
      // or a timeout, ends the attempt. The deadline applies per address.
      let result: WebhookPostResult = { kind: 'error', message: 'no address' };
      for (const address of check.addresses) {
        result = await options.transport({
          url: check.url,
          address: formatIp(address),
          headers: {
            'content-type': 'application/json',
            'user-agent': userAgent,
            'x-service-event': delivery.event,
            'x-service-delivery': delivery.id,
            'x-service-signature': signature,
          },
          body: delivery.body,
          timeoutMillis,
          maxResponseBytes: maxResponseExcerptBytes,
        });
        if (result.kind !== 'error') break;
      }
      verdict = judge(result, timeoutMillis);
    }
    const durationMs = Math.round(performance.now() - started);
    const attempts = delivery.attempts + 1;
    const next = verdict.ok ? null : nextAttemptAfterFailure(attempts, attemptedAt);
    const state = verdict.ok ? 'delivered' : next ? 'waiting' : 'failed';
    // One statement, so atomic: the delivery moves on and its attempt is recorded only while our lease holds.
    const recorded = await sqlOf(db).all(
      `with moved as (
         update webhook_deliveries set attempts = ?, state = ?, next_attempt_at = ?, lease_id = null, lease_until = null, updated_at = ?
         where id = ? and lease_id = ? returning id)
       insert into webhook_attempts (delivery_id, attempted_at, outcome, status_code, duration_ms, error, response_excerpt)
       select id, ?, ?, ?::integer, ?::integer, ?, ? from moved returning id`,
      [attempts, state, next, attemptedAt, delivery.id, leaseId, attemptedAt, verdict.ok ? 'success' : 'failure', verdict.status, durationMs, verdict.error, verdict.excerpt],
    );
    if (recorded.length === 0) {
      // Our lease expired and another worker took the delivery: its attempt is the one that counts.
      options.logger.warn('webhook delivery lease lost during an attempt', { delivery_id: delivery.id });
    }
  }

  /** One pass: fan out new outbox rows, then send every due delivery, batch by batch. Returns the attempts made. */
  async function collect(): Promise<number> {
    let made = 0;
    while (!stopped && (await fanOutOutbox(options.outbox, { publicUrl: options.publicUrl, now: now() })) > 0) {
      // Loop: a burst of outbox rows may exceed one batch.
    }
    while (!stopped) {
      const { leaseId, rows } = await claim();
      if (rows.length === 0) break;
      // Endpoints in parallel; one endpoint's events of one run in outbox order, so test.started of a short run
      // does not overtake its test.completed when both leave in the same pass.
      const groups = new Map<string, Claimed[]>();
      for (const row of rows) {
        const key = `${row.webhook_id}/${taskOf(row.body) ?? row.id}`;
        groups.set(key, [...(groups.get(key) ?? []), row]);
      }
      await Promise.all(
        [...groups.values()].map(async (group) => {
          for (const row of group) {
            await attempt(row, leaseId).catch((error) =>
              options.logger.error('webhook attempt could not be recorded', { delivery_id: row.id, error: String(error) }),
            );
          }
        }),
      );
      made += rows.length;
    }
    return made;
  }

  /** Runs collect now, or once more right after the running pass (wake-ups arriving meanwhile are merged). */
  const wake = coalescingPass(collect, {
    stopped: () => stopped,
    onError: (error) => options.logger.error('webhook collector failed', { error: String(error) }),
  });

  return {
    collect,
    wake,
    /**
     * Frees every lease at once: only for a database no other process delivers from (embedded PGlite), where any
     * lease found at start was left by this service's previous life, killed mid-attempt.
     */
    async releaseStaleLeases(): Promise<number> {
      const freed = await sqlOf(db).all(
        "update webhook_deliveries set lease_id = null, lease_until = null where state = 'waiting' and lease_id is not null returning id",
      );
      return freed.length;
    },
    async stop() {
      stopped = true;
      await wake.settled();
    },
  };
}

export type DeliveryWorker = ReturnType<typeof createDeliveryWorker>;
