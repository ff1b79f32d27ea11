/** Plugin setting variables are named from the plugin's name and the key's camelCase words. */
import { expect, test } from 'bun:test';
import { camelCase, pluginVariable, pluginVariableName, screamingSnake } from './plugin-variable-names.ts';

test('NAME: upper-cased, - and / as _, a scope without its @', () => {
  expect(pluginVariableName('load-tool-k6')).toBe('LOAD_TOOL_K6');
  expect(pluginVariableName('mcp')).toBe('MCP');
  expect(pluginVariableName('@acme/loadplane-plugin-x')).toBe('ACME_LOADPLANE_PLUGIN_X');
});

test('KEY: camelCase words in SCREAMING_SNAKE, and back for plugins without a schema', () => {
  expect(screamingSnake('binary')).toBe('BINARY');
  expect(screamingSnake('waitIncrementSeconds')).toBe('WAIT_INCREMENT_SECONDS');
  expect(screamingSnake('apiUrl')).toBe('API_URL');
  expect(screamingSnake('quickLoginCheckMilliSeconds')).toBe('QUICK_LOGIN_CHECK_MILLI_SECONDS');
  expect(screamingSnake('jwksURL')).toBe('JWKS_URL');
  expect(camelCase('BINARY_PATH')).toBe('binaryPath');
});

test('a nested key joins its path with __', () => {
  expect(pluginVariable('load-tool-k6', ['binary'])).toBe('LOADPLANE_PLUGIN_LOAD_TOOL_K6_BINARY');
  expect(pluginVariable('mcp', ['ai', 'apiKey'])).toBe('LOADPLANE_PLUGIN_MCP_AI__API_KEY');
});
