import { expect, test } from 'bun:test';
import { toolBaseEnv } from './tool-env.ts';

test('a tool starts from an allowlist: the service\'s secrets and settings never reach it', () => {
  const serviceEnv = {
    PATH: '/usr/local/bin:/usr/bin:/bin',
    HOME: '/var/lib/loadplane',
    TZ: 'Europe/Paris',
    LANG: 'de_DE.ISO-8859-1',
    DATABASE_URL: 'postgres://loadplane:pw@db/loadplane',
    SECRET_KEY: 'k'.repeat(40),
    AUTH_CLIENT_SECRET: 'client-secret',
    BOOTSTRAP_ADMIN_PASSWORD: 'admin-password',
    LOADPLANE_TOKEN: 'psk_agent',
    DATA_DIR: '/var/lib/loadplane/data',
    npm_config_cache: '/root/.npm',
    HTTPS_PROXY: 'http://user:pw@proxy:3128',
  };
  expect(toolBaseEnv(serviceEnv)).toEqual({ PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/var/lib/loadplane', LANG: 'C.UTF-8', TZ: 'Europe/Paris' });
  expect(toolBaseEnv({})).toEqual({ PATH: '/usr/local/bin:/usr/bin:/bin', HOME: '/tmp', LANG: 'C.UTF-8' });
});
