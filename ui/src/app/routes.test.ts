import { expect, test } from 'bun:test';
import { matchesPattern } from './routes';

test('a path matches a pattern of the same segments, a parameter taking any non-empty segment', () => {
  expect(matchesPattern('/runs', '/runs')).toBe(true);
  expect(matchesPattern('/runs', '/runs/')).toBe(true);
  expect(matchesPattern('/runs/:id', '/runs/3f2a')).toBe(true);
  expect(matchesPattern('/runs/:id', '/runs')).toBe(false);
  expect(matchesPattern('/runs/:id', '/runs/3f2a/logs')).toBe(false);
  expect(matchesPattern('/settings/webhooks', '/settings/members')).toBe(false);
  expect(matchesPattern('/dashboards/:id', '/dashboards/')).toBe(false);
});
