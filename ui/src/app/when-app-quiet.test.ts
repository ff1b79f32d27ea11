import { afterAll, beforeAll, expect, test } from 'bun:test';
import { QueryClient } from '@tanstack/react-query';
import { whenAppQuiet } from './when-app-quiet';

// The page as the function sees it: loaded already, no idle callback (so it falls back to a timer).
const saved = { document: globalThis.document, window: globalThis.window };
beforeAll(() => {
  Object.assign(globalThis, { document: { readyState: 'complete' }, window: { addEventListener() {} } });
});
afterAll(() => {
  Object.assign(globalThis, saved);
});

test('waits for the first answer and for no query in flight, then runs the work once', async () => {
  const client = new QueryClient();
  const events: string[] = [];
  let release!: () => void;
  const done = new Promise<void>((resolve) => {
    whenAppQuiet(client, () => {
      events.push('work');
      resolve();
    });
  });
  // A page's first query, answered only when the test says so; a second starts while it runs.
  const first = client.fetchQuery({ queryKey: ['first'], queryFn: () => new Promise<string>((resolve) => (release = () => resolve('a'))) });
  const second = client.fetchQuery({ queryKey: ['second'], queryFn: () => new Promise<string>((resolve) => setTimeout(() => resolve('b'), 0)) });
  await second;
  events.push('second answered');
  // The first still runs: nothing yet, however many timers pass.
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  expect(events).toEqual(['second answered']);
  release();
  await first;
  events.push('first answered');
  await done;
  // Later answers do not run it again.
  await client.fetchQuery({ queryKey: ['third'], queryFn: async () => 'c' });
  for (let i = 0; i < 5; i++) await new Promise((resolve) => setTimeout(resolve, 0));
  expect(events).toEqual(['second answered', 'first answered', 'work']);
});
