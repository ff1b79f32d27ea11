/** The index as one page's HTML: which chunks a path preloads, and the config inlined so nothing can end its element. */
import { describe, expect, test } from 'bun:test';
import { matchesPattern, pageHtml, preloadsFor } from './page-html.ts';

const manifest = {
  routes: [
    { pattern: '/runs', files: ['/assets/runs-page-aa11.js'] },
    { pattern: '/runs/:id', files: ['/assets/run-page-bb22.js', '/assets/index-cc33.js'] },
    { pattern: '/settings/workspace', files: ['/assets/workspace-page-dd44.js'] },
  ],
};

describe('preloads', () => {
  test('the pattern the router would match, with its parameters', () => {
    expect(matchesPattern('/runs/:id', '/runs/abc')).toBe(true);
    expect(matchesPattern('/runs/:id', '/runs/abc/')).toBe(true);
    expect(matchesPattern('/runs/:id', '/runs')).toBe(false);
    expect(matchesPattern('/runs/:id', '/runs/abc/log')).toBe(false);
    expect(preloadsFor(manifest, '/runs/abc')).toEqual(['/assets/run-page-bb22.js', '/assets/index-cc33.js']);
    expect(preloadsFor(manifest, '/runs')).toEqual(['/assets/runs-page-aa11.js']);
  });

  test('paths the router redirects preload their target page', () => {
    expect(preloadsFor(manifest, '/')).toEqual(['/assets/runs-page-aa11.js']);
    expect(preloadsFor(manifest, '/settings')).toEqual(['/assets/workspace-page-dd44.js']);
    expect(preloadsFor(manifest, '/settings/')).toEqual(['/assets/workspace-page-dd44.js']);
  });

  test('no page, no manifest or a broken one: nothing, and only chunk URLs ever reach the page', () => {
    expect(preloadsFor(manifest, '/nowhere')).toEqual([]);
    expect(preloadsFor(null, '/runs')).toEqual([]);
    expect(preloadsFor({ routes: 'x' }, '/runs')).toEqual([]);
    expect(preloadsFor({ routes: [{ pattern: '/runs', files: ['/assets/a-1.js', 'https://evil.example/x.js', '/assets/"><b>.js', 7, '/assets/../x.js'] }] }, '/runs')).toEqual([
      '/assets/a-1.js',
    ]);
  });
});

describe('the page', () => {
  const index = '<!doctype html><html><head><title>x</title></head><body></body></html>';

  test('links and the config go at the end of the head, in that order', () => {
    const html = pageHtml(index, { preloads: ['/assets/a-1.js'], uiConfigJson: '{"authority":"https://id.example/x"}' });
    expect(html).toBe(
      '<!doctype html><html><head><title>x</title><link rel="modulepreload" crossorigin href="/assets/a-1.js"><script type="application/json" id="loadplane-ui-config">{"authority":"https://id.example/x"}</script></head><body></body></html>',
    );
  });

  test('a value that holds </script> or a comment cannot end the data block, and still parses to the same value', () => {
    const config = JSON.stringify({ authority: 'https://id.example/</script><script>alert(1)</script><!--', version: '1\u2028' });
    const html = pageHtml(index, { preloads: [], uiConfigJson: config });
    const block = /<script type="application\/json" id="loadplane-ui-config">([\s\S]*?)<\/script>/.exec(html)![1]!;
    expect(block).not.toContain('<');
    expect(JSON.parse(block)).toEqual(JSON.parse(config));
    expect(html.match(/<\/script>/g)).toHaveLength(1);
  });
});
