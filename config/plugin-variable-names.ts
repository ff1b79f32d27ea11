/** How plugin settings are named in the environment: LOADPLANE_PLUGIN_<NAME>_<KEY>, nested keys joined by `__`. */

export const pluginVariablePrefix = 'LOADPLANE_PLUGIN_';

/**
 * Joins nested keys (LOADPLANE_PLUGIN_MCP_AI__MODEL is `ai.model`). A double underscore, as ASP.NET Core and pydantic
 * use, because a single one already joins the words of one key and of the plugin's name.
 */
export const nestedKeySeparator = '__';

/**
 * A plugin's NAME in its variables: upper-cased, every character that is not a letter or digit as `_`, a scope's
 * leading `@` dropped (`load-tool-k6` -> LOAD_TOOL_K6, `@acme/loadplane-x` -> ACME_LOADPLANE_X).
 */
export function pluginVariableName(pluginName: string): string {
  return pluginName.replace(/^@/, '').toUpperCase().replace(/[^A-Z0-9]/g, '_');
}

/** A config key in SCREAMING_SNAKE: `waitIncrementSeconds` -> WAIT_INCREMENT_SECONDS, `apiUrl` -> API_URL. */
export function screamingSnake(key: string): string {
  return key
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .toUpperCase()
    .replace(/[^A-Z0-9]/g, '_');
}

/** The reverse for plugins without a schema, which cannot say how a key is spelt: BINARY_PATH -> binaryPath. */
export function camelCase(snake: string): string {
  return snake.toLowerCase().replace(/_([a-z0-9])/g, (_, letter: string) => letter.toUpperCase());
}

/** The variable that sets `path` of a plugin's slice, as an operator would write it. */
export function pluginVariable(pluginName: string, path: readonly string[]): string {
  return `${pluginVariablePrefix}${pluginVariableName(pluginName)}_${path.map(screamingSnake).join(nestedKeySeparator)}`;
}
