/**
 * The operator's plugin settings: variables mapped to keys by the plugin's schema and typed by it, the file under the
 * variables, and every mistake an error naming the plugin and the key (a secret's value never shown).
 */
import { describe, expect, test } from 'bun:test';
import { Type } from '@sinclair/typebox';
import { PluginConfigError } from './plugin-config-error.ts';
import type { PluginSources } from './plugin-sources.ts';
import { type ConfigurablePlugin, resolvePluginSettings } from './plugin-settings.ts';
import { refusalOf } from '../tests/helpers/refusal.ts';

const k6: ConfigurablePlugin = { name: 'load-tool-k6', configSchema: Type.Object({ binary: Type.String({ minLength: 1, default: 'k6' }) }) };
const identity: ConfigurablePlugin = {
  name: 'identity-embedded',
  configSchema: Type.Object({
    clientSecret: Type.String({ minLength: 1 }),
    passwordIterations: Type.Integer({ minimum: 1, default: 210_000 }),
    redirectUris: Type.Array(Type.String({ minLength: 1 }), { default: [] }),
    bruteForce: Type.Object(
      { enabled: Type.Boolean({ default: true }), waitIncrementSeconds: Type.Integer({ minimum: 1, default: 60 }) },
      { default: {} },
    ),
    bootstrapAdmin: Type.Optional(Type.Object({ username: Type.String(), password: Type.Optional(Type.String({ minLength: 1 })) })),
  }),
};
const mcp: ConfigurablePlugin = {
  name: 'mcp',
  configSchema: Type.Object({ ai: Type.Object({ apiKey: Type.Optional(Type.String({ minLength: 1 })), model: Type.Optional(Type.String()) }, { default: {} }) }),
};
const schemaless: ConfigurablePlugin = { name: 'loadplane-plugin-hey' };
const plugins = [k6, identity, mcp, schemaless];

function resolve(variables: Record<string, string>, file?: Record<string, Record<string, unknown>>, unknownPlugins: 'error' | 'skip' = 'error') {
  const sources: PluginSources = { variables, file: file ? { path: '/etc/lp.json', plugins: file } : null };
  return resolvePluginSettings({ plugins, sources, elsewhere: ['ui-admin'], unknownPlugins });
}

const refusal = (run: () => unknown) => refusalOf(run, PluginConfigError);

describe('variables', () => {
  test('LOADPLANE_PLUGIN_<NAME>_<KEY>: the plugin by its name, the key by its schema', () => {
    const { slices, origins } = resolve({ LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY: '/opt/k6/k6' });
    expect(slices).toEqual({ 'load-tool-k6': { binary: '/opt/k6/k6' } });
    expect(origins['load-tool-k6']).toEqual({ binary: 'LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY' });
  });

  test('typed by the schema: whole numbers, booleans, lists; nested keys joined by __', () => {
    const { slices } = resolve({
      LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_PASSWORD_ITERATIONS: '1000',
      LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_REDIRECT_URIS: 'https://a.test/*, https://b.test/*',
      LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE__ENABLED: 'off',
      LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE__WAIT_INCREMENT_SECONDS: '5',
      LOADPLANE_PLUGIN_MCP_AI__MODEL: 'gpt-x',
    });
    expect(slices['identity-embedded']).toEqual({
      passwordIterations: 1000,
      redirectUris: ['https://a.test/*', 'https://b.test/*'],
      bruteForce: { enabled: false, waitIncrementSeconds: 5 },
    });
    expect(slices.mcp).toEqual({ ai: { model: 'gpt-x' } });
  });

  test('an object as JSON at its own key', () => {
    const { slices } = resolve({ LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE: '{"enabled": false}' });
    expect(slices['identity-embedded']).toEqual({ bruteForce: { enabled: false } });
  });

  test('a plugin without a schema gets strings under camelCase keys', () => {
    const { slices } = resolve({ LOADPLANE_PLUGIN_LOADPLANE_PLUGIN_HEY_BINARY_PATH: '/opt/hey', LOADPLANE_PLUGIN_LOADPLANE_PLUGIN_HEY_LIMITS__RPS: '5' });
    expect(slices['loadplane-plugin-hey']).toEqual({ binaryPath: '/opt/hey', limits: { rps: '5' } });
  });
});

describe('precedence', () => {
  test('the environment wins over the file, key by key', () => {
    const { slices, origins } = resolve(
      { LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE__WAIT_INCREMENT_SECONDS: '7' },
      { 'identity-embedded': { passwordIterations: 2000, bruteForce: { enabled: false, waitIncrementSeconds: 3 } }, 'load-tool-k6': { binary: '/file/k6' } },
    );
    expect(slices['identity-embedded']).toEqual({ passwordIterations: 2000, bruteForce: { enabled: false, waitIncrementSeconds: 7 } });
    expect(slices['load-tool-k6']).toEqual({ binary: '/file/k6' });
    expect(origins['identity-embedded']!['bruteForce.waitIncrementSeconds']).toBe('LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE__WAIT_INCREMENT_SECONDS');
    expect(origins['identity-embedded']!.passwordIterations).toContain('LOADPLANE_CONFIG (/etc/lp.json');
  });
});

describe('mistakes stop the start, naming the plugin and the key', () => {
  test('a value of the wrong type', () => {
    const message = refusal(() => resolve({ LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_PASSWORD_ITERATIONS: 'lots' }));
    expect(message).toBe('plugin "identity-embedded": LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_PASSWORD_ITERATIONS must be a whole number, got "lots"');
    expect(refusal(() => resolve({ LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE__ENABLED: 'maybe' }))).toBe(
      'plugin "identity-embedded": LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE__ENABLED must be true or false (on or off), got "maybe"',
    );
  });

  test("a value its schema refuses (from the variable or from the file)", () => {
    expect(refusal(() => resolve({ LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE__WAIT_INCREMENT_SECONDS: '0' }))).toContain(
      'plugin "identity-embedded": LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE__WAIT_INCREMENT_SECONDS: Expected integer to be greater or equal to 1, got "0"',
    );
    expect(refusal(() => resolve({}, { 'load-tool-k6': { binary: 42 } }))).toBe(
      'plugin "load-tool-k6": binary in LOADPLANE_CONFIG (/etc/lp.json, plugins["load-tool-k6"]): Expected string, got "42"',
    );
  });

  test('an unknown key of a plugin with a schema, from a variable or the file', () => {
    expect(refusal(() => resolve({ LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINRY: '/opt/k6' }))).toBe(
      'plugin "load-tool-k6": LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINRY is not one of its settings (LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY)',
    );
    expect(refusal(() => resolve({ LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE_ENABLED: 'off' }))).toContain(
      'plugin "identity-embedded": LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE_ENABLED is not one of its settings',
    );
    expect(refusal(() => resolve({}, { 'identity-embedded': { bruteForce: { enabld: false, waitSeconds: 3 } } }))).toBe(
      'plugin "identity-embedded": unknown setting(s) bruteForce.enabld, bruteForce.waitSeconds in bruteForce in LOADPLANE_CONFIG (/etc/lp.json, plugins["identity-embedded"]) (known: enabled, waitIncrementSeconds)',
    );
    expect(refusal(() => resolve({ LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE: '{"enabld": false}' }))).toContain(
      'unknown setting(s) bruteForce.enabld in LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE',
    );
    expect(refusal(() => resolve({}, { 'load-tool-k6': { binary: 'k6', path: '/x' } }))).toContain('unknown setting(s) path');
  });

  test('a variable or file entry for no plugin at all; on an agent only a warning', () => {
    expect(refusal(() => resolve({ LOADPLANE_PLUGIN_LOAD_TOOL_K7_BINARY: '/x' }))).toContain(
      'LOADPLANE_PLUGIN_LOAD_TOOL_K7_BINARY names no loaded plugin: plugin settings are LOADPLANE_PLUGIN_<NAME>_<KEY>, NAME one of',
    );
    expect(refusal(() => resolve({}, { 'load-tool-k7': { binary: '/x' } }))).toContain('no plugin "load-tool-k7" is loaded');
    const onAgent = resolve({ LOADPLANE_PLUGIN_LOAD_TOOL_K7_BINARY: '/x' }, { 'notify-email': { from: 'x' } }, 'skip');
    expect(onAgent.slices).toEqual({});
    expect(onAgent.skipped).toEqual([
      'plugins["notify-email"] of LOADPLANE_CONFIG (/etc/lp.json): plugin "notify-email" is not loaded here',
      'LOADPLANE_PLUGIN_LOAD_TOOL_K7_BINARY: names no plugin loaded here',
    ]);
  });

  test('a built-in plugin this host leaves out is skipped with a warning, not an error', () => {
    const { slices, skipped } = resolve({ LOADPLANE_PLUGIN_UI_ADMIN_VERSION: '1' });
    expect(slices).toEqual({});
    expect(skipped).toEqual(['LOADPLANE_PLUGIN_UI_ADMIN_VERSION: plugin "ui-admin" is not loaded here']);
  });

  test('one key set twice by variables; a malformed key', () => {
    expect(
      refusal(() =>
        resolve({ LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE: '{"enabled": true}', LOADPLANE_PLUGIN_IDENTITY_EMBEDDED_BRUTE_FORCE__ENABLED: 'off' }),
      ),
    ).toContain('bruteForce.enabled is set by both');
    expect(refusal(() => resolve({ LOADPLANE_PLUGIN_MCP_AI___MODEL: 'x' }))).toContain('nested keys by __');
  });
});

describe('secrets', () => {
  test("a secret's value is never in the message", () => {
    const variable = refusal(() => resolve({ LOADPLANE_PLUGIN_MCP_AI: '{"apiKey": ""}' }));
    expect(variable).toBe('plugin "mcp": LOADPLANE_PLUGIN_MCP_AI (key apiKey): Expected string length greater or equal to 1, got (hidden)');
    const secret = refusal(() => resolve({}, { mcp: { ai: { apiKey: 123456789 } } }));
    expect(secret).toContain('ai.apiKey');
    expect(secret).not.toContain('123456789');
    const password = refusal(() => resolve({}, { 'identity-embedded': { bootstrapAdmin: { password: '' } } }));
    expect(password).toContain('(hidden)');
  });
});
