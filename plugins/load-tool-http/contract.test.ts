/** The http tool passes the load-tool contract; its real run needs nothing installed (the engine runs on this runtime). */
import { createModuleRuntime, describeLoadToolContract } from 'loadplane/plugin/testing';
import { createHttpTool, engineModule } from './http-tool.ts';

// As an agent starts it: the host's module runtime gives the argv that runs the engine module.
const engine = createModuleRuntime().command(engineModule);

describeLoadToolContract('http', () => createHttpTool({ engine }), {
  goodScript: 'base_url: http://127.0.0.1:1\nsteps:\n  - {method: GET, url: /}\n',
  badScripts: [
    'echo hello',
    // YAML, but no steps.
    'base_url: http://127.0.0.1:1\n',
    // Not YAML at all.
    'steps: [unclosed\n',
    // A relative url without base_url.
    'steps:\n  - {method: GET, url: /}\n',
  ],
  realRun: {
    // No load config: one VU runs the five steps once, so exactly five requests reach the target.
    script: (target) =>
      JSON.stringify({
        base_url: target,
        steps: [
          { name: 'contract home', method: 'GET', url: '/' },
          { method: 'POST', url: '/items', body: { a: 1 } },
          { method: 'PUT', url: '/items/1', body: 'text' },
          { method: 'GET', url: '/items/1', expect: { status: 200, body_contains: 'ok' } },
          { method: 'DELETE', url: '/items/1' },
        ],
      }),
    requests: 5,
    hitsTarget: true,
    logContains: 'contract home',
  },
});
