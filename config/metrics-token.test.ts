/** METRICS_TOKEN: optional; when set, 16 to 512 printable ASCII characters without spaces, and never echoed when refused. */
import { expect, test } from 'bun:test';
import { loadConfig } from './load-config.ts';

test('METRICS_TOKEN is optional, kept when valid, refused (hidden) when short or with spaces', () => {
  expect(loadConfig({}).metricsToken).toBeUndefined();
  expect(loadConfig({ METRICS_TOKEN: '' }).metricsToken).toBeUndefined();
  expect(loadConfig({ METRICS_TOKEN: 'scrape-me-0123456789' }).metricsToken).toBe('scrape-me-0123456789');
  for (const bad of ['short-secret', 'has spaces in it 0123456789', 'x'.repeat(513)]) {
    let message = '';
    try {
      loadConfig({ METRICS_TOKEN: bad });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain('METRICS_TOKEN is invalid');
    expect(message).toContain('(hidden)');
    expect(message).not.toContain(bad);
  }
});
