/** API tokens' pure part: scopes, expiry, the limit count and the create form's checks. */
import { describe, expect, test } from 'bun:test';
import { activeTokenCount, describeScopes, expiryOf, SCOPES, tokenBody, tokenLimitText, validateTokenDraft } from './token-model';

const now = Date.parse('2026-11-26T12:00:00Z');

describe('token model', () => {
  test('the seven scopes of the spec, described in order', () => {
    expect(SCOPES).toEqual(['tests:read', 'tests:write', 'runs:read', 'runs:write', 'machines:read', 'machines:write', 'metrics:read']);
    expect(describeScopes([])).toContain('Full access');
    expect(describeScopes(['runs:read', 'tests:read'])).toBe('tests:read, runs:read');
  });
  test('expiry choices', () => {
    expect(expiryOf('never', '', now)).toEqual({ value: null });
    expect(expiryOf('30', '', now)).toEqual({ value: '2026-12-26T12:00:00.000Z' });
    expect(expiryOf('custom', '2027-01-31', now)).toEqual({ value: '2027-01-31T23:59:59.000Z' });
    expect(expiryOf('custom', '', now)).toHaveProperty('error');
    expect(expiryOf('custom', '2026-11-01', now)).toEqual({ error: 'The expiry must be in the future.' });
    expect(expiryOf('custom', '2040-01-01', now)).toEqual({ error: 'A token can last at most 5 years.' });
  });
  test('only unexpired tokens count against the limit', () => {
    const tokens = [{ expires_at: null }, { expires_at: '2026-11-25T00:00:00Z' }, { expires_at: '2027-01-01T00:00:00Z' }];
    expect(activeTokenCount(tokens, now)).toBe(2);
    expect(tokenLimitText(2, 5)).toBe('2 of 5 tokens used (the plan’s limit per user)');
    expect(tokenLimitText(0, 0)).toContain('no API access');
  });
  test('the form needs a name; the body orders scopes', () => {
    expect(validateTokenDraft({ name: ' ', scopes: [], expiry: 'never', date: '' }, now)).toHaveProperty('name');
    expect(validateTokenDraft({ name: 'ci', scopes: [], expiry: 'custom', date: '' }, now)).toHaveProperty('expiry');
    expect(tokenBody({ name: ' ci ', scopes: ['metrics:read', 'runs:write'], expiry: 'never', date: '' }, now)).toEqual({
      name: 'ci',
      scopes: ['runs:write', 'metrics:read'],
      expires_at: null,
    });
  });
});
