/** The plugin variables and LOADPLANE_CONFIG as read at start: the file's shape is checked, its contents never quoted. */
import { expect, test } from 'bun:test';
import { ConfigError, loadConfig } from './load-config.ts';
import { PluginSourcesError, readPluginSources } from './plugin-sources.ts';

const files = (contents: Record<string, string>) => (path: string) => {
  if (!(path in contents)) throw Object.assign(new Error(`ENOENT: ${path}`), { code: 'ENOENT' });
  return contents[path]!;
};

test('LOADPLANE_PLUGIN_* variables as written (trimmed; blank is unset), not LOADPLANE_PLUGINS', () => {
  const sources = readPluginSources({
    LOADPLANE_PLUGINS: 'loadplane-plugin-hey',
    LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY: ' /opt/k6/k6 ',
    LOADPLANE_PLUGIN_MCP_AI__MODEL: '  ',
    PATH: '/usr/bin',
  });
  expect(sources).toEqual({ variables: { LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY: '/opt/k6/k6' }, file: null });
});

test("LOADPLANE_CONFIG: the file's plugins section", () => {
  const read = files({ '/etc/lp.json': '{"plugins": {"load-tool-k6": {"binary": "/opt/k6"}}}' });
  expect(readPluginSources({ LOADPLANE_CONFIG: '/etc/lp.json' }, read).file).toEqual({
    path: '/etc/lp.json',
    plugins: { 'load-tool-k6': { binary: '/opt/k6' } },
  });
});

test.each([
  ['{"plugins": {"mcp": {"ai": {"apiKey": "sk-live-123"}}', 'is not valid JSON'],
  ['["sk-live-123"]', 'must hold a JSON object'],
  ['{"plugin": {"mcp": {"ai": {"apiKey": "sk-live-123"}}}}', 'unknown key(s) "plugin"'],
  ['{"plugins": ["sk-live-123"]}', '"plugins" must be an object'],
  ['{"plugins": {"mcp": "sk-live-123"}}', 'plugins.mcp must be an object'],
])('a file that cannot be used stops the start without quoting it: %s', (text, message) => {
  const read = files({ '/etc/lp.json': text });
  expect(() => readPluginSources({ LOADPLANE_CONFIG: '/etc/lp.json' }, read)).toThrow(PluginSourcesError);
  expect(() => readPluginSources({ LOADPLANE_CONFIG: '/etc/lp.json' }, read)).toThrow(message);
  try {
    readPluginSources({ LOADPLANE_CONFIG: '/etc/lp.json' }, read);
  } catch (error) {
    expect((error as Error).message).not.toContain('sk-live-123');
  }
});

test('loadConfig keeps them, and reports a missing file as a configuration error naming LOADPLANE_CONFIG', () => {
  const config = loadConfig({ LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY: '/opt/k6' });
  expect(config.pluginSources.variables).toEqual({ LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY: '/opt/k6' });
  expect(() => loadConfig({ LOADPLANE_CONFIG: '/nowhere/lp.json' }, files({}))).toThrow(ConfigError);
  expect(() => loadConfig({ LOADPLANE_CONFIG: '/nowhere/lp.json' }, files({}))).toThrow('LOADPLANE_CONFIG: cannot read /nowhere/lp.json: ENOENT');
});
