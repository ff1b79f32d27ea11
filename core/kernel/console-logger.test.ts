/** The console logger's two formats: JSON lines for collectors, one short line per entry for a person at a terminal. */
import { expect, test } from 'bun:test';
import { createConsoleLogger, prettyLine } from './console-logger.ts';

test('pretty: time, level, component, message, then key=value with long values cut', () => {
  const at = new Date('2026-11-26T12:04:05.678Z');
  expect(prettyLine(at, 'info', 'loadplane is listening', { url: 'http://127.0.0.1:8080', database: 'pglite' })).toBe(
    '12:04:05 INFO  loadplane is listening  url=http://127.0.0.1:8080 database=pglite',
  );
  const line = prettyLine(at, 'warn', 'tools run in a sandbox', { component: 'local-agent', tools: ['k6', 'http'], sandbox: 'x'.repeat(600), note: 'two words' });
  expect(line.startsWith('12:04:05 WARN  [local-agent] tools run in a sandbox  tools=["k6","http"] sandbox=xxx')).toBe(true);
  expect(line).toContain('…');
  expect(line).toContain('note="two words"');
  // A 600-character value no longer makes a 600-character line.
  expect(line.length).toBeLessThan(220);
});

test('json stays the default: one parseable line per entry with every field; pretty on request', () => {
  const written: string[] = [];
  const original = console.error;
  console.error = (text: string) => void written.push(text);
  try {
    createConsoleLogger('info', { component: 'agent' }).info('hello', { long: 'y'.repeat(600) });
    createConsoleLogger('info', {}, 'pretty').child({ component: 'agent' }).error('oops', { code: 7 });
    createConsoleLogger('warn', {}, 'pretty').info('below the level');
  } finally {
    console.error = original;
  }
  expect(written).toHaveLength(2);
  expect(JSON.parse(written[0]!)).toMatchObject({ level: 'info', message: 'hello', component: 'agent', long: 'y'.repeat(600) });
  expect(written[1]).toMatch(/^\d\d:\d\d:\d\d ERROR \[agent\] oops {2}code=7$/);
});
