/** The audit log's filters and how entries read. */
import { describe, expect, test } from 'bun:test';
import type { AuditEntry } from '../settings/settings-types';
import { actionsOf, actorText, detailsText, hasAuditFilters, matchesAudit, readAuditFilters, targetText } from './audit-filters';

const entry = (action: string, label: string, type = 'user'): AuditEntry => ({
  id: action + label,
  action,
  actor: { type, id: 'a1', label, user_id: 'u1' },
  target: { type: 'api_token', id: 't1', label: 'ci' },
  details: { scopes: ['runs:read'], expires_at: null },
  time: '2026-11-26T12:00:00Z',
  workspace_id: 'w1',
});

describe('audit filters', () => {
  test('from the URL', () => {
    expect(readAuditFilters(new URLSearchParams('action=webhook.&actor=ana'))).toEqual({ action: 'webhook.', actor: 'ana' });
    expect(hasAuditFilters({ action: '', actor: ' ' })).toBe(false);
  });
  test('by action, family and actor', () => {
    const created = entry('webhook.created', 'Ana');
    expect(matchesAudit(created, { action: 'webhook.created', actor: '' })).toBe(true);
    expect(matchesAudit(created, { action: 'webhook.', actor: '' })).toBe(true);
    expect(matchesAudit(created, { action: 'webhook.deleted', actor: '' })).toBe(false);
    expect(matchesAudit(created, { action: '', actor: 'an' })).toBe(true);
    expect(matchesAudit(created, { action: '', actor: 'bo' })).toBe(false);
  });
  test('how entries read', () => {
    expect(actorText(entry('x', 'Ana'))).toBe('Ana');
    expect(actorText(entry('x', 'ci', 'token'))).toBe('ci (API token)');
    expect(targetText(entry('x', 'Ana'))).toBe('api token ci');
    expect(detailsText({ scopes: ['runs:read'], expires_at: null, name: 'x' })).toBe('scopes: ["runs:read"], name: x');
    expect(actionsOf([entry('webhook.created', 'a'), entry('api_token.revoked', 'a')], 'member.')).toEqual({
      families: ['api_token.', 'member.', 'webhook.'],
      actions: ['api_token.revoked', 'webhook.created'],
    });
  });
});
