/**
 * Webhook management: create (the signing secret shown once, stored sealed), list, read, update, delete, rotate the
 * secret, queue a test.ping, list deliveries with their attempts, and redeliver a finished delivery by hand.
 * Workspace-scoped (a foreign id is not found) and audit-logged (the workspace audit log port, in the same transaction).
 */
import {
  type Caller,
  conflict,
  type Database,
  type Envelope,
  envelopeBody,
  generateWebhookSecret,
  isUuid,
  isWebhookEvent,
  notFound,
  badRequest,
  type OutboundUrlGuard,
  type SecretBox,
  type Sql,
  sqlOf,
  transaction,
  type WebhookEvent,
  webhookEvents,
  type WorkspaceAuditLog,
} from 'loadplane/plugin';

export interface WebhookRow {
  id: string;
  workspace_id: string;
  url: string;
  description: string | null;
  events: WebhookEvent[];
  enabled: boolean;
  secret_box: string;
  created_at: Date;
  updated_at: Date;
  secret_rotated_at: Date | null;
}

export interface DeliveryRow {
  id: string;
  webhook_id: string;
  event_id: string;
  event: string;
  state: 'waiting' | 'delivered' | 'failed';
  attempts: number;
  next_attempt_at: Date | null;
  redelivery_of: string | null;
  created_at: Date;
  updated_at: Date;
  body: string;
}

export interface AttemptRow {
  delivery_id: string;
  attempted_at: Date;
  outcome: 'success' | 'failure';
  status_code: number | null;
  duration_ms: number;
  error: string | null;
  response_excerpt: string | null;
}

export interface WebhookInput {
  url?: string;
  events?: string[];
  description?: string | null;
  enabled?: boolean;
}

const iso = (value: Date | string | null) => (value === null ? null : new Date(value).toISOString());

export function toWebhookView(row: WebhookRow) {
  return {
    id: row.id,
    url: row.url,
    description: row.description,
    events: row.events,
    enabled: row.enabled,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    secret_rotated_at: iso(row.secret_rotated_at),
  };
}

export function toDeliveryView(row: DeliveryRow & { attempt_rows: AttemptRow[] }) {
  return {
    id: row.id,
    webhook_id: row.webhook_id,
    event: row.event,
    envelope: JSON.parse(row.body) as Envelope,
    state: row.state,
    attempt_count: row.attempts,
    next_attempt_at: row.state === 'waiting' ? iso(row.next_attempt_at) : null,
    redelivery_of: row.redelivery_of,
    created_at: iso(row.created_at)!,
    updated_at: iso(row.updated_at)!,
    // Newest first, like the deliveries themselves.
    attempts: row.attempt_rows.map((attempt) => ({
      attempted_at: iso(attempt.attempted_at)!,
      outcome: attempt.outcome,
      status_code: attempt.status_code,
      duration_ms: attempt.duration_ms,
      error: attempt.error,
      response_excerpt: attempt.response_excerpt,
    })),
  };
}

export type WebhookView = ReturnType<typeof toWebhookView>;
export type DeliveryView = ReturnType<typeof toDeliveryView>;

/** Rows of a paged list carry createdAt and id for the cursor. */
type Paged<T> = T & { createdAt: Date; id: string };
interface Page {
  limit: number;
  after: { createdAt: Date; id: string } | null;
}

const maxUrlLength = 2048;
const maxDescriptionLength = 500;

function parseEvents(values: string[] | undefined, required: boolean): WebhookEvent[] | undefined {
  if (values === undefined) {
    if (required) throw badRequest(`events is required: any of ${webhookEvents.join(', ')}`, { field: 'events' });
    return undefined;
  }
  const unique = [...new Set(values)];
  const unknown = unique.filter((event) => !isWebhookEvent(event));
  if (unknown.length > 0) {
    throw badRequest(`unknown event ${unknown.map((e) => `"${e}"`).join(', ')}; webhooks subscribe to ${webhookEvents.join(', ')}`, {
      field: 'events',
    });
  }
  if (unique.length === 0) throw badRequest(`events must name at least one of ${webhookEvents.join(', ')}`, { field: 'events' });
  return webhookEvents.filter((event) => unique.includes(event));
}

function parseDescription(value: string | null | undefined): string | null | undefined {
  if (value === undefined || value === null) return value;
  const trimmed = value.trim();
  if (trimmed.length > maxDescriptionLength) {
    throw badRequest(`description may be at most ${maxDescriptionLength} characters`, { field: 'description' });
  }
  return trimmed || null;
}

export function createWebhookService(deps: {
  db: Database;
  guard: OutboundUrlGuard;
  secrets: SecretBox;
  audit: WorkspaceAuditLog;
  /** Tells the delivery worker that deliveries are waiting (after the transaction committed). */
  queued(workspaceId: string): void;
  now?: () => Date;
}) {
  const now = deps.now ?? (() => new Date());

  async function checkedUrl(value: string): Promise<string> {
    const url = value.trim();
    if (url.length > maxUrlLength) throw badRequest(`url may be at most ${maxUrlLength} characters`, { field: 'url' });
    const verdict = await deps.guard.check(url);
    if (!verdict.ok) throw badRequest(verdict.reason, { field: 'url' });
    return verdict.url.href;
  }

  async function findWebhook(sql: Sql, caller: Caller, id: string, lock = false): Promise<WebhookRow> {
    // A malformed id cannot exist; 404 (not 400) keeps ids opaque, as everywhere.
    if (!isUuid(id)) throw notFound('webhook');
    const [row] = await sql.all<WebhookRow>(`select * from webhooks where id = ? and workspace_id = ?${lock ? ' for update' : ''}`, [
      id.toLowerCase(),
      caller.workspace.workspaceId,
    ]);
    if (!row) throw notFound('webhook');
    return row;
  }

  async function withAttempts(sql: Sql, rows: DeliveryRow[]): Promise<Array<DeliveryRow & { attempt_rows: AttemptRow[] }>> {
    if (rows.length === 0) return [];
    const attempts = await sql.all<AttemptRow>(
      `select * from webhook_attempts where delivery_id in (${rows.map(() => '?').join(', ')}) order by id desc`,
      rows.map((row) => row.id),
    );
    return rows.map((row) => ({ ...row, attempt_rows: attempts.filter((attempt) => attempt.delivery_id === row.id) }));
  }

  async function readDelivery(sql: Sql, id: string) {
    const rows = await sql.all<DeliveryRow>(
      `select d.*, e.body from webhook_deliveries d join webhook_events e on e.id = d.event_id where d.id = ?`,
      [id],
    );
    return (await withAttempts(sql, rows))[0]!;
  }

  return {
    async list(caller: Caller, page: Page): Promise<Array<Paged<WebhookRow>>> {
      const after = page.after;
      const rows = await sqlOf(deps.db).all<WebhookRow>(
        `select * from webhooks where workspace_id = ?${after ? ' and (created_at, id) < (?, ?)' : ''}
         order by created_at desc, id desc limit ?`,
        [caller.workspace.workspaceId, ...(after ? [after.createdAt, after.id] : []), page.limit + 1],
      );
      return rows.map((row) => ({ ...row, createdAt: new Date(row.created_at) }));
    },

    async get(caller: Caller, id: string): Promise<WebhookRow> {
      return findWebhook(sqlOf(deps.db), caller, id);
    },

    async create(caller: Caller, input: WebhookInput & { url: string }): Promise<{ row: WebhookRow; secret: string }> {
      const events = parseEvents(input.events, true)!;
      const description = parseDescription(input.description) ?? null;
      const url = await checkedUrl(input.url);
      const secret = generateWebhookSecret();
      const sealed = await deps.secrets.seal(secret);
      const at = now();
      const id = crypto.randomUUID();
      const row = await transaction(deps.db, async (tx) => {
        const [created] = await tx.all<WebhookRow>(
          `insert into webhooks (id, workspace_id, url, description, events, enabled, secret_box, created_at, updated_at)
           values (?, ?, ?, ?, ?::jsonb, ?, ?, ?, ?) returning *`,
          [id, caller.workspace.workspaceId, url, description, JSON.stringify(events), input.enabled ?? true, sealed, at, at],
        );
        await deps.audit.record(tx, caller, 'webhook.created', { type: 'webhook', id, label: url }, { events, enabled: input.enabled ?? true });
        return created!;
      });
      return { row, secret };
    },

    async update(caller: Caller, id: string, input: WebhookInput): Promise<WebhookRow> {
      const events = parseEvents(input.events, false);
      const description = parseDescription(input.description);
      const url = input.url === undefined ? undefined : await checkedUrl(input.url);
      return transaction(deps.db, async (tx) => {
        const current = await findWebhook(tx, caller, id, true);
        const next = {
          url: url ?? current.url,
          events: events ?? current.events,
          description: description === undefined ? current.description : description,
          enabled: input.enabled ?? current.enabled,
        };
        const [updated] = await tx.all<WebhookRow>(
          `update webhooks set url = ?, events = ?::jsonb, description = ?, enabled = ?, updated_at = ? where id = ? returning *`,
          [next.url, JSON.stringify(next.events), next.description, next.enabled, now(), current.id],
        );
        const changed = Object.keys(input).filter((key) => input[key as keyof WebhookInput] !== undefined);
        await deps.audit.record(tx, caller, 'webhook.updated', { type: 'webhook', id: current.id, label: next.url }, { changed });
        return updated!;
      });
    },

    async remove(caller: Caller, id: string): Promise<void> {
      await transaction(deps.db, async (tx) => {
        const current = await findWebhook(tx, caller, id, true);
        // Its deliveries go with it (cascade): a deleted endpoint is never called again.
        await tx.all('delete from webhooks where id = ?', [current.id]);
        await deps.audit.record(tx, caller, 'webhook.deleted', { type: 'webhook', id: current.id, label: current.url });
      });
    },

    async rotateSecret(caller: Caller, id: string): Promise<{ id: string; secret: string }> {
      const secret = generateWebhookSecret();
      const sealed = await deps.secrets.seal(secret);
      await transaction(deps.db, async (tx) => {
        const current = await findWebhook(tx, caller, id, true);
        const at = now();
        await tx.all('update webhooks set secret_box = ?, secret_rotated_at = ?, updated_at = ? where id = ?', [sealed, at, at, current.id]);
        await deps.audit.record(tx, caller, 'webhook.secret_rotated', { type: 'webhook', id: current.id, label: current.url });
      });
      // Attempts sign when they leave, so waiting deliveries are signed with the new secret from now on.
      return { id: id.toLowerCase(), secret };
    },

    /** Queues a test.ping for this webhook alone (whatever its subscription: the admin asked for it). */
    async ping(caller: Caller, id: string) {
      const delivery = await transaction(deps.db, async (tx) => {
        const webhook = await findWebhook(tx, caller, id);
        const at = now();
        const eventId = crypto.randomUUID();
        const envelope: Envelope = {
          id: eventId,
          event: 'test.ping',
          created_at: at.toISOString(),
          tenant_id: caller.workspace.workspaceId,
          data: { webhook_id: webhook.id, message: 'a test event sent from the webhook settings' },
        };
        await tx.all('insert into webhook_events (id, workspace_id, event, body, created_at) values (?, ?, ?, ?, ?)', [
          eventId,
          webhook.workspace_id,
          'test.ping',
          envelopeBody(envelope),
          at,
        ]);
        const deliveryId = crypto.randomUUID();
        await tx.all(
          `insert into webhook_deliveries (id, workspace_id, webhook_id, event_id, event, state, attempts, next_attempt_at, created_at, updated_at)
           values (?, ?, ?, ?, 'test.ping', 'waiting', 0, ?, ?, ?)`,
          [deliveryId, webhook.workspace_id, webhook.id, eventId, at, at, at],
        );
        await deps.audit.record(tx, caller, 'webhook.test_sent', { type: 'webhook', id: webhook.id, label: webhook.url }, { delivery_id: deliveryId });
        return readDelivery(tx, deliveryId);
      });
      deps.queued(caller.workspace.workspaceId);
      return delivery;
    },

    /** A finished delivery (delivered or failed) sent again as a new delivery: same envelope, fresh attempts. */
    async redeliver(caller: Caller, webhookId: string, deliveryId: string) {
      const delivery = await transaction(deps.db, async (tx) => {
        const webhook = await findWebhook(tx, caller, webhookId);
        if (!isUuid(deliveryId)) throw notFound('delivery');
        const [original] = await tx.all<DeliveryRow>('select * from webhook_deliveries where id = ? and webhook_id = ? for update', [
          deliveryId.toLowerCase(),
          webhook.id,
        ]);
        if (!original) throw notFound('delivery');
        if (original.state === 'waiting') throw conflict('this delivery is still waiting for an attempt; redeliver it once it has finished');
        const at = now();
        const id = crypto.randomUUID();
        await tx.all(
          `insert into webhook_deliveries (id, workspace_id, webhook_id, event_id, event, state, attempts, next_attempt_at, redelivery_of, created_at, updated_at)
           values (?, ?, ?, ?, ?, 'waiting', 0, ?, ?, ?, ?)`,
          [id, webhook.workspace_id, webhook.id, original.event_id, original.event, at, original.id, at, at],
        );
        await deps.audit.record(tx, caller, 'webhook.redelivered', { type: 'webhook', id: webhook.id, label: webhook.url }, {
          delivery_id: id,
          original_delivery_id: original.id,
        });
        return readDelivery(tx, id);
      });
      deps.queued(caller.workspace.workspaceId);
      return delivery;
    },

    async deliveries(caller: Caller, webhookId: string, page: Page) {
      const sql = sqlOf(deps.db);
      const webhook = await findWebhook(sql, caller, webhookId);
      const after = page.after;
      const rows = await sql.all<DeliveryRow>(
        `select d.*, e.body from webhook_deliveries d join webhook_events e on e.id = d.event_id
         where d.webhook_id = ?${after ? ' and (d.created_at, d.id) < (?, ?)' : ''}
         order by d.created_at desc, d.id desc limit ?`,
        [webhook.id, ...(after ? [after.createdAt, after.id] : []), page.limit + 1],
      );
      return (await withAttempts(sql, rows)).map((row) => ({ ...row, createdAt: new Date(row.created_at) }));
    },
  };
}

export type WebhookService = ReturnType<typeof createWebhookService>;
