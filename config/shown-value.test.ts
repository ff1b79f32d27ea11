/** Values in plugin setting errors: shown to help, except a secret's, and never a URL's password. */
import { expect, test } from 'bun:test';
import { looksSecret, shownValue } from './shown-value.ts';

test('secret keys, in camelCase paths or variable names', () => {
  for (const key of ['clientSecret', 'bootstrapAdmin.password', 'ai.apiKey', 'LOADPLANE_PLUGIN_MCP_AI__API_KEY', 'authToken', 'privateKeyPem']) {
    expect(looksSecret(key)).toBe(true);
  }
  for (const key of ['binary', 'passwordIterations', 'LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_PASSWORD_ITERATIONS', 'accessTokenLifetimeSeconds', 'issuer']) {
    expect(looksSecret(key)).toBe(false);
  }
});

test("shown quoted; a secret's hidden; a URL's password masked", () => {
  expect(shownValue('binary', '/opt/k6')).toBe('"/opt/k6"');
  expect(shownValue('passwordIterations', 0)).toBe('"0"');
  expect(shownValue('clientSecret', 'abc')).toBe('(hidden)');
  expect(shownValue('smtpUrl', 'smtp://mailer:p4ss@mail.test')).toBe('"smtp://mailer:***@mail.test"');
});
