/** Webhooks' pure part: the events, the form's checks and how deliveries read. */
import { describe, expect, test } from 'bun:test';
import { attemptSummary, canRedeliver, deliveryTone, EVENTS, validateWebhookDraft, webhookBody } from './webhook-model';

describe('webhook model', () => {
  test('the three events a webhook subscribes to', () => {
    expect(EVENTS).toEqual(['test.started', 'test.completed', 'test.failed']);
  });
  test('the form checks the address and the events', () => {
    expect(validateWebhookDraft({ url: '', events: ['test.failed'], description: '' })).toHaveProperty('url');
    expect(validateWebhookDraft({ url: 'ftp://x', events: ['test.failed'], description: '' }).url).toContain('http');
    expect(validateWebhookDraft({ url: 'https://u:p@x.example', events: ['test.failed'], description: '' }).url).toContain('credentials');
    expect(validateWebhookDraft({ url: 'https://x.example/hook', events: [], description: '' })).toEqual({ events: 'Pick at least one event.' });
    expect(validateWebhookDraft({ url: 'https://x.example/hook', events: ['test.failed'], description: '' })).toEqual({});
  });
  test('the body keeps the events in order and drops an empty description', () => {
    expect(webhookBody({ url: ' https://x.example ', events: ['test.failed', 'test.started'], description: ' ' })).toEqual({
      url: 'https://x.example',
      events: ['test.started', 'test.failed'],
      description: null,
    });
  });
  test('deliveries and attempts', () => {
    expect(deliveryTone('delivered')).toBe('success');
    expect(deliveryTone('failed')).toBe('danger');
    expect(canRedeliver({ state: 'waiting' })).toBe(false);
    expect(canRedeliver({ state: 'failed' })).toBe(true);
    const base = { attempted_at: '2026-11-26T12:00:00Z', outcome: 'success', response_excerpt: null };
    expect(attemptSummary({ ...base, status_code: 200, duration_ms: 12.4, error: null })).toBe('HTTP 200 in 12 ms');
    expect(attemptSummary({ ...base, outcome: 'failure', status_code: null, duration_ms: 5, error: 'connection refused' })).toBe(
      'connection refused after 5 ms',
    );
  });
});
