/**
 * The plugin kit of a single executable: there is no checkout beside it to install `@loadplane/plugin-kit` from, so
 * the plugins `loadplane plugin install` put on disk get this executable's own copy of the kit, as a virtual module
 * Bun resolves for every import of it. Capabilities and ports are then the very objects the executable uses.
 */
import { plugin } from 'bun';
import * as kit from '../../../packages/plugin-kit/src/index.ts';

let provided = false;

export function provideBundledPluginKit(): void {
  if (provided) return;
  provided = true;
  plugin({
    name: 'loadplane-bundled-plugin-kit',
    setup(build) {
      build.module('@loadplane/plugin-kit', () => ({ exports: { ...kit }, loader: 'object' }));
    },
  });
}
