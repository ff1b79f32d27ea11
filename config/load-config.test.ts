import { describe, expect, test } from 'bun:test';
import { ConfigError, loadConfig } from './load-config.ts';

describe('loadConfig', () => {
  test('defaults follow the operational contract', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      publicUrl: 'http://localhost:8080',
      dataDir: './data',
      authRealm: 'loadplane',
      authClientId: 'loadplane',
      webhookAllowHosts: [],
      localAgent: true,
      agentSandbox: 'on',
      defaultPlan: 'enterprise',
    });
    expect(config.databaseUrl).toBeUndefined();
    expect(Object.isFrozen(config)).toBe(true);
  });

  test('PUBLIC_URL follows PORT; LOCAL_AGENT defaults off with a database server', () => {
    const config = loadConfig({ PORT: '9090', DATABASE_URL: 'postgres://u:p@db:5432/lp', WEBHOOK_ALLOW_HOSTS: '10.0.0.0/8, hooks.local ' });
    expect(config.publicUrl).toBe('http://localhost:9090');
    expect(config.localAgent).toBe(false);
    expect(config.webhookAllowHosts).toEqual(['10.0.0.0/8', 'hooks.local']);
  });

  test.each([
    [{ PORT: 'eighty' }, 'PORT must be a whole number'],
    [{ PORT: '70000' }, 'PORT is invalid'],
    [{ DATABASE_URL: 'mysql://x' }, 'DATABASE_URL is invalid'],
    [{ DEFAULT_PLAN: 'gold' }, 'DEFAULT_PLAN is invalid'],
    [{ LOCAL_AGENT: 'maybe' }, 'LOCAL_AGENT must be true or false'],
    [{ AGENT_SANDBOX: 'partly' }, 'AGENT_SANDBOX must be true or false (on or off)'],
    [{ PUBLIC_URL: 'localhost:8080' }, 'PUBLIC_URL'],
    [{ SECRET_KEY: 'short' }, 'SECRET_KEY is invalid'],
    [{ BOOTSTRAP_ADMIN_PASSWORD: 'long-enough-password' }, 'BOOTSTRAP_ADMIN_USERNAME is not'],
  ])('%p is refused naming the variable', (env, message) => {
    expect(() => loadConfig(env)).toThrow(ConfigError);
    expect(() => loadConfig(env)).toThrow(message);
  });

  test('AGENT_SANDBOX: on by default, off only when asked', () => {
    expect(loadConfig({ AGENT_SANDBOX: 'off' }).agentSandbox).toBe('off');
    expect(loadConfig({ AGENT_SANDBOX: 'false' }).agentSandbox).toBe('off');
    expect(loadConfig({ AGENT_SANDBOX: 'on' }).agentSandbox).toBe('on');
    expect(loadConfig({ AGENT_SANDBOX: ' ' }).agentSandbox).toBe('on');
  });

  test('TRUSTED_PROXIES: CIDRs and addresses, anything else is a configuration error naming it', () => {
    expect(loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8, 127.0.0.1,fd00::/8' }).trustedProxies).toEqual(['10.0.0.0/8', '127.0.0.1', 'fd00::/8']);
    expect(() => loadConfig({ TRUSTED_PROXIES: '10.0.0.0/8,proxy.internal' })).toThrow('TRUSTED_PROXIES is invalid: "proxy.internal"');
  });

  test('a refused secret is not echoed', () => {
    expect(() => loadConfig({ BOOTSTRAP_ADMIN_USERNAME: 'a', BOOTSTRAP_ADMIN_PASSWORD: 'short' })).toThrow('(got (hidden))');
  });
});
