import { expect, test } from 'bun:test';
import { lazyPage } from './lazy-page';

const Page = () => null;

test('the code is asked for once, however often the page is loaded', async () => {
  let imports = 0;
  const page = lazyPage(async () => {
    imports++;
    return { default: Page };
  });
  const [first, second] = await Promise.all([page.load(), page.load()]);
  await page.load();
  expect(first.default).toBe(Page);
  expect(second).toBe(first);
  expect(imports).toBe(1);
});

test('a chunk that failed to load is asked for again next time', async () => {
  let attempts = 0;
  const page = lazyPage(async () => {
    attempts++;
    if (attempts === 1) throw new Error('chunk failed');
    return { default: Page };
  });
  await expect(page.load()).rejects.toThrow('chunk failed');
  expect((await page.load()).default).toBe(Page);
  expect(attempts).toBe(2);
});

test('a page whose code is here renders in the same render; one whose code is not shows the loading line', async () => {
  const { renderToString } = await import('react-dom/server');
  const { createElement } = await import('react');
  const Hello = ({ who }: { who?: string }) => createElement('h1', null, `hello ${who}`);
  const page = lazyPage(async () => ({ default: Hello as never }));
  // The router passes its props through to the page.
  const Page = page.Page as (props: { who: string }) => null;
  expect(renderToString(createElement(Page, { who: 'a' }))).toContain('Loading');
  await page.load();
  expect(renderToString(createElement(Page, { who: 'a' }))).toBe('<h1>hello a</h1>');
});
