/**
 * A host's plugin slices with the built-in plugins' real schemas: what the service derives, under the config file,
 * under the variables; the merged slice checked with errors that say where a value came from.
 */
import { describe, expect, test } from 'bun:test';
import { loadConfig } from '../../config/load-config.ts';
import { PluginConfigError } from '../../config/plugin-config-error.ts';
import { silentLogger } from '../../core/kernel/logger.ts';
import { builtinPluginConfig } from './compose-service.ts';
import { operatorPluginConfig } from './operator-plugin-config.ts';
import { loadPluginsByName } from './plugins.ts';
import { refusalOf } from '../../tests/helpers/refusal.ts';

const plugins = await loadPluginsByName(['load-tool-k6', 'load-tool-gatling', 'mcp', 'notify-webhook', 'identity-oidc']);
const facts = { authUrl: 'http://localhost:8080/auth', clientSecret: 'generated-secret', bootstrapUsername: null };

function slicesFor(env: Record<string, string>, file?: object) {
  const config = loadConfig({ ...env, ...(file ? { LOADPLANE_CONFIG: '/etc/lp.json' } : {}) }, () => JSON.stringify(file));
  return operatorPluginConfig('server', plugins, config.pluginSources, silentLogger).slices(builtinPluginConfig(config, facts));
}

const refusal = (run: () => unknown) => refusalOf(run, PluginConfigError);

describe('precedence: variables > file > derived', () => {
  test("a built-in load tool's binary, which the service derives nothing for", () => {
    expect(slicesFor({ LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY: '/opt/k6/k6' })['load-tool-k6']).toEqual({ binary: '/opt/k6/k6' });
    expect(slicesFor({}, { plugins: { 'load-tool-gatling': { launcher: '/opt/gatling/bin/gatling' } } })['load-tool-gatling']).toEqual({
      launcher: '/opt/gatling/bin/gatling',
    });
  });

  test('over what the service derives, nested key by key', () => {
    const env = { AI_MODEL: 'derived-model', AI_API_URL: 'https://ai.test/v1', WEBHOOK_ALLOW_HOSTS: 'hooks.test' };
    const file = { plugins: { mcp: { ai: { model: 'file-model' } }, 'notify-webhook': { collectEveryMillis: 1000, allowHosts: ['file.test'] } } };
    const slices = slicesFor({ ...env, LOADPLANE_PLUGIN_NOTIFY_WEBHOOK_COLLECT_EVERY_MILLIS: '500' }, file);
    // The file's model over AI_MODEL's; AI_API_URL's URL stays.
    expect(slices.mcp!.ai).toEqual({ apiUrl: 'https://ai.test/v1', model: 'file-model' });
    // The variable over the file; a list from the file replaces the derived one whole.
    expect(slices['notify-webhook']).toMatchObject({ collectEveryMillis: 500, allowHosts: ['file.test'] });
    expect(slicesFor({ ...env, LOADPLANE_PLUGIN_MCP_AI__MODEL: 'env-model' }, file).mcp!.ai).toEqual({ apiUrl: 'https://ai.test/v1', model: 'env-model' });
  });

  test("a test's overrides sit between the derived slices and the operator's", () => {
    const config = loadConfig({ LOADPLANE_PLUGIN_NOTIFY_WEBHOOK_COLLECT_EVERY_MILLIS: '900' });
    const host = operatorPluginConfig('server', plugins, config.pluginSources, silentLogger);
    const slices = host.slices(builtinPluginConfig(config, facts), { 'notify-webhook': { collectEveryMillis: 100, workers: false } });
    expect(slices['notify-webhook']).toMatchObject({ collectEveryMillis: 900, workers: false });
  });
});

describe('the merged slice is checked, naming where the value came from', () => {
  test('a value the schema refuses: the variable or file entry', () => {
    expect(refusal(() => slicesFor({ LOADPLANE_PLUGIN_NOTIFY_WEBHOOK_COLLECT_EVERY_MILLIS: '5' }))).toBe(
      'plugin "notify-webhook": LOADPLANE_PLUGIN_NOTIFY_WEBHOOK_COLLECT_EVERY_MILLIS: Expected integer to be greater or equal to 100, got "5"',
    );
    expect(refusal(() => slicesFor({}, { plugins: { 'identity-oidc': { allowedAlgorithms: ['HS256'] } } }))).toContain(
      'plugin "identity-oidc": allowedAlgorithms in LOADPLANE_CONFIG (/etc/lp.json, plugins["identity-oidc"]) (at allowedAlgorithms.0)',
    );
  });

  test('a key whose value came from the service is named as such; a required key left unset says how to set it', () => {
    const config = loadConfig({});
    const host = operatorPluginConfig('server', plugins, config.pluginSources, silentLogger);
    expect(refusal(() => host.slices({ mcp: { publicUrl: 'not a url' } }))).toBe(
      'plugin "mcp": publicUrl (from the service\'s own configuration, got "not a url"): Expected string to match \'^https?://[^/]+$\'',
    );
    expect(refusal(() => host.slices({}))).toContain(
      'plugin "mcp": publicUrl (unset: set LOADPLANE_PLUGIN_MCP_PUBLIC_URL or plugins["mcp"].publicUrl in LOADPLANE_CONFIG)',
    );
  });

  test('an agent warns about settings for plugins it does not load, by name only', () => {
    const warnings: unknown[] = [];
    const logger = { ...silentLogger, warn: (message: string, fields?: Record<string, unknown>) => warnings.push({ message, fields }) };
    const config = loadConfig({ LOADPLANE_PLUGIN_MCP_AI__API_KEY: 'sk-live-123', LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY: '/opt/k6' });
    const agentPlugins = plugins.filter((plugin) => plugin.name.startsWith('load-tool-'));
    expect(operatorPluginConfig('agent', agentPlugins, config.pluginSources, logger).slices()).toEqual({ 'load-tool-k6': { binary: '/opt/k6' } });
    expect(warnings).toEqual([{ message: 'plugin setting not used here', fields: { setting: 'LOADPLANE_PLUGIN_MCP_AI__API_KEY: plugin "mcp" is not loaded here' } }]);
    expect(JSON.stringify(warnings)).not.toContain('sk-live-123');
  });
});
