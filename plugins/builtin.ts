/** The built-in plugins by name; they load through the same path as third-party packages. */
import type { PluginModule } from '../core/kernel/load-plugins.ts';

export const builtinPlugins: Readonly<Record<string, () => Promise<PluginModule>>> = {
  'identity-embedded': () => import('./identity-embedded/index.ts'),
  'identity-oidc': () => import('./identity-oidc/index.ts'),
  'load-tool-custom': () => import('./load-tool-custom/index.ts'),
  'load-tool-k6': () => import('./load-tool-k6/index.ts'),
  'notify-webhook': () => import('./notify-webhook/index.ts'),
  'notify-email': () => import('./notify-email/index.ts'),
};
