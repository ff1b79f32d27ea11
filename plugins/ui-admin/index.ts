/**
 * The built-in `ui-admin` plugin: serves the bundled admin UI (built by `bun ui/build.ts` into ui/dist) at `/` on every
 * replica, with the routes its router owns and /ui-config.json. The core knows nothing of the UI; this plugin reads the
 * built files through the static-assets port. Guide: plugins/ui-admin/README.md.
 */
import { definePlugin, httpRoutesCapability, staticAssetsPort } from 'loadplane/plugin';
import { createAssetStore } from './asset-store.ts';
import { UiAdminConfigSchema } from './config.ts';
import { uiRoutes } from './ui-routes.ts';

export { type UiAdminConfig, UiAdminConfigSchema } from './config.ts';
export { contentSecurityPolicy } from './security-headers.ts';
export { uiPathPrefixes } from './ui-paths.ts';

export default definePlugin({
  name: 'ui-admin',
  configSchema: UiAdminConfigSchema,
  async setup(ctx) {
    // Without the port (a host that serves no files) every page answers the "not built" page instead of failing boot.
    const assets = ctx.has(staticAssetsPort) ? ctx.use(staticAssetsPort) : null;
    const store = createAssetStore(assets);
    if (!(await store.index())) ctx.logger.warn('the admin UI is not built: / answers 503 until `npm run build` runs');
    ctx.provide(httpRoutesCapability, { name: 'ui-admin', routes: uiRoutes(ctx.config, store) });
  },
});
