/**
 * Webhooks, the pure part: the events a webhook may subscribe to, the form's checks, and how a delivery and its
 * attempts read. Exports: EVENTS, eventHelp, WebhookDraft, emptyWebhookDraft, validateWebhookDraft, webhookBody,
 * deliveryTone, attemptSummary, canRedeliver, hasWaiting.
 */
import { allOf, type WebhookAttempt, type WebhookDelivery, type WebhookEvent } from '../settings-types';

export const EVENTS = allOf<WebhookEvent>()(['test.started', 'test.completed', 'test.failed'] as const);

export const eventHelp: Record<WebhookEvent, string> = {
  'test.started': 'a run was sent to its machines',
  'test.completed': 'a run finished successfully',
  'test.failed': 'a run failed or was cancelled (data.status says which)',
};

export interface WebhookDraft {
  url: string;
  events: WebhookEvent[];
  description: string;
}

export const emptyWebhookDraft = (): WebhookDraft => ({ url: '', events: ['test.completed', 'test.failed'], description: '' });

export type WebhookErrors = Partial<Record<'url' | 'events' | 'description', string>>;

export function validateWebhookDraft(draft: WebhookDraft): WebhookErrors {
  const errors: WebhookErrors = {};
  const url = draft.url.trim();
  if (!url) errors.url = 'Enter the address that receives the events.';
  else {
    let parsed: URL | null = null;
    try {
      parsed = new URL(url);
    } catch {
      parsed = null;
    }
    if (!parsed || (parsed.protocol !== 'http:' && parsed.protocol !== 'https:')) errors.url = 'Enter an http:// or https:// address.';
    else if (parsed.username || parsed.password) errors.url = 'Leave credentials out of the address; verify deliveries with the signing secret.';
  }
  if (draft.events.length === 0) errors.events = 'Pick at least one event.';
  if (draft.description.length > 500) errors.description = 'At most 500 characters.';
  return errors;
}

export function webhookBody(draft: WebhookDraft): { url: string; events: WebhookEvent[]; description: string | null } {
  return {
    url: draft.url.trim(),
    events: EVENTS.filter((event) => draft.events.includes(event)),
    description: draft.description.trim() || null,
  };
}

/** The badge tone of a delivery's state. */
export function deliveryTone(state: string): 'success' | 'danger' | 'info' | 'neutral' {
  if (state === 'delivered') return 'success';
  if (state === 'failed') return 'danger';
  if (state === 'waiting') return 'info';
  return 'neutral';
}

/** "HTTP 200 in 12 ms", "HTTP 500 in 30 ms", "connection refused after 5 ms". */
export function attemptSummary(attempt: WebhookAttempt): string {
  const took = `${Math.round(attempt.duration_ms)} ms`;
  if (attempt.status_code !== null) return `HTTP ${attempt.status_code} in ${took}${attempt.error ? `: ${attempt.error}` : ''}`;
  return `${attempt.error ?? 'no answer'} after ${took}`;
}

/** A finished delivery can be sent again; a waiting one is still being retried (the API answers 409). */
export function canRedeliver(delivery: Pick<WebhookDelivery, 'state'>): boolean {
  return delivery.state !== 'waiting';
}

export function hasWaiting(deliveries: readonly Pick<WebhookDelivery, 'state'>[]): boolean {
  return deliveries.some((delivery) => delivery.state === 'waiting');
}
