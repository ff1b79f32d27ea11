/** The `custom` load-tool plugin: runs any script (shebang, else sh) and reads `loadplane:sample` lines as requests. */
import { definePlugin, loadToolCapability, programLookupPort } from 'loadplane/plugin';
import { createCustomTool } from './custom-tool.ts';

export { createCustomTool, validateCustomScript } from './custom-tool.ts';
export { parseSampleLine, samplePrefix } from './sample-line.ts';

export default definePlugin({
  name: 'load-tool-custom',
  setup(ctx) {
    const which = ctx.has(programLookupPort) ? ctx.use(programLookupPort) : undefined;
    ctx.provide(loadToolCapability, createCustomTool({ which }));
  },
});
