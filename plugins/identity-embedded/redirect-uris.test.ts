/** Redirect URI matching: exact or wildcard prefix, and nothing a browser would rewrite into another path. */
import { describe, expect, test } from 'bun:test';
import { redirectUriAllowed, withQuery } from './redirect-uris.ts';

describe('redirectUriAllowed', () => {
  const patterns = ['http://localhost:8080/*', 'https://app.example/callback'];

  test('exact entries match exactly; a trailing * matches any suffix', () => {
    expect(redirectUriAllowed('https://app.example/callback', patterns)).toBe(true);
    expect(redirectUriAllowed('https://app.example/callback?x=1', patterns)).toBe(false);
    expect(redirectUriAllowed('https://app.example/callback2', patterns)).toBe(false);
    expect(redirectUriAllowed('http://localhost:8080/', patterns)).toBe(true);
    expect(redirectUriAllowed('http://localhost:8080/ui/callback?next=%2F', patterns)).toBe(true);
  });

  test('refuses other origins, fragments, dot segments, backslashes and other schemes', () => {
    for (const uri of [
      'http://localhost:8080.evil.example/',
      'http://localhost:8080@evil.example/',
      'http://localhost:8080/#frag',
      'http://localhost:8080/a/../b',
      'http://localhost:8080/a/..',
      'http://localhost:8080/./a',
      'http://localhost:8080/%2E%2e/a',
      'http://localhost:8080/a\\b',
      'javascript:alert(1)',
      'not a url',
    ]) {
      expect(redirectUriAllowed(uri, patterns)).toBe(false);
    }
    expect(redirectUriAllowed('http://localhost:8080/', [])).toBe(false);
  });
});

describe('withQuery', () => {
  test('adds parameters, keeps existing ones, skips undefined', () => {
    expect(withQuery('http://a.example/cb?x=1', { code: 'c d', state: undefined })).toBe('http://a.example/cb?x=1&code=c+d');
  });
});
