/** The backup's SQL text: every statement on one line, literals that read back as written. */
import { expect, test } from 'bun:test';
import { oneLine, quoteIdent, quoteLiteral } from './sql-text.ts';

test('literals: plain when they can be, escape strings (on one line) when they hold a backslash or a line break', () => {
  expect(quoteLiteral("it's")).toBe("'it''s'");
  expect(quoteLiteral('a\\b')).toBe("E'a\\\\b'");
  expect(quoteLiteral("x\r\ny'")).toBe("E'x\\r\\ny'''");
  expect(quoteLiteral('tab\tand 🐢')).toBe("'tab\tand 🐢'");
});

test('identifiers keep their case and quotes', () => {
  expect(quoteIdent('Odd "Name"')).toBe('"Odd ""Name"""');
});

test('a statement with line breaks runs through EXECUTE on one line', () => {
  expect(oneLine('create index x on t (a);')).toBe('create index x on t (a);');
  const wrapped = oneLine("create function f() returns int language sql as $$\n  select 1 -- one\n$$");
  expect(wrapped).not.toContain('\n');
  expect(wrapped).toBe("DO $loadplane_restore$ BEGIN EXECUTE E'create function f() returns int language sql as $$\\n  select 1 -- one\\n$$'; END $loadplane_restore$;");
});
