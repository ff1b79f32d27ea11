/**
 * The operator's plugin settings for one host, on the same terms for the server and every agent: LOADPLANE_PLUGIN_*
 * variables over the LOADPLANE_CONFIG file, typed and checked by each plugin's schema (config/plugin-settings.ts).
 */
import { checkPluginSlices } from '../../config/check-plugin-slices.ts';
import { mergeSlices } from '../../config/merge-slices.ts';
import type { PluginSources } from '../../config/plugin-sources.ts';
import { type PluginSettings, resolvePluginSettings } from '../../config/plugin-settings.ts';
import type { PluginDefinition } from '../../core/kernel/define-plugin.ts';
import type { Logger } from '../../core/kernel/logger.ts';
import type { PluginHost } from './plugins.ts';
import { builtinPlugins } from './plugins.ts';

export interface HostPluginConfig {
  /**
   * The slices the kernel gets, `derived` (what the composition root works out, then tests' overrides) below the
   * operator's settings: the operator wins. Checked against each schema; throws PluginConfigError naming plugin and key.
   */
  slices(...derived: readonly (Readonly<Record<string, Record<string, unknown>>> | undefined)[]): Record<string, Record<string, unknown>>;
  readonly operator: PluginSettings;
}

/**
 * The operator's settings of `plugins`. The server loads every plugin, so a setting for one it does not know stops the
 * start (a built-in left out here, such as identity-embedded with AUTH_URL, is only warned about); an agent loads the
 * load tools only, and the same variables or file may serve the server, so it warns about the others. Logged by name,
 * never by value (values may be secrets).
 */
export function operatorPluginConfig(
  host: PluginHost,
  plugins: readonly PluginDefinition[],
  sources: PluginSources,
  logger: Logger,
): HostPluginConfig {
  const operator = resolvePluginSettings({
    plugins,
    sources,
    elsewhere: Object.keys(builtinPlugins),
    unknownPlugins: host === 'server' ? 'error' : 'skip',
  });
  for (const entry of operator.skipped) logger.warn('plugin setting not used here', { setting: entry });
  return {
    operator,
    slices(...derived) {
      const merged = mergeSlices(...derived, operator.slices);
      checkPluginSlices(plugins, merged, operator.origins);
      return merged;
    },
  };
}
