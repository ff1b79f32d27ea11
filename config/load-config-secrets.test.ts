/** A refused setting is named with its value, never with a secret in it: passwords, secrets, and a URL's password. */
import { expect, test } from 'bun:test';
import { loadConfig } from './load-config.ts';

const message = (env: Record<string, string>) => {
  try {
    loadConfig(env);
  } catch (error) {
    return (error as Error).message;
  }
  throw new Error('expected the config to be refused');
};

test("a URL's password is masked in the message; the rest of the value is shown", () => {
  const text = message({ DATABASE_URL: 'postgre://loadplane:s3cret-pw@db:5432/loadplane' });
  expect(text).toContain('DATABASE_URL is invalid');
  expect(text).not.toContain('s3cret-pw');
  expect(text).toContain('postgre://loadplane:***@db:5432/loadplane');
  expect(message({ SMTP_URL: 'smtp-x://mailer:p4ss@mail.test' })).not.toContain('p4ss');
});

test('secret-named variables are hidden whole', () => {
  expect(message({ SECRET_KEY: 'too-short' })).toContain('(got (hidden))');
});
