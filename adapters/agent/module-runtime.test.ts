import { expect, test } from 'bun:test';
import { createModuleRuntime } from './module-runtime.ts';

test('a plugin module runs with this runtime, and the sandbox is told to let runs read the runtime and the module\'s folder', () => {
  const runtime = createModuleRuntime('/opt/bun');
  expect(runtime.readable()).toEqual(['/opt/bun']);
  expect(runtime.command(new URL('file:///srv/loadplane/plugins/load-tool-http/engine/main.ts'))).toEqual([
    '/opt/bun',
    '--no-install',
    '/srv/loadplane/plugins/load-tool-http/engine/main.ts',
  ]);
  runtime.command(new URL('file:///srv/loadplane/plugins/load-tool-http/engine/other.ts'));
  expect(runtime.readable()).toEqual(['/opt/bun', '/srv/loadplane/plugins/load-tool-http/engine']);
  expect(() => runtime.command(new URL('https://example.com/engine.ts'))).toThrow('a plugin module must be a file to run as a process');
  // By default, the binary running this agent.
  expect(createModuleRuntime().command(new URL('file:///x/m.ts'))[0]).toBe(process.execPath);
});

test('in a single executable the module runs by its id through the hidden subcommand, and only the executable is read', () => {
  const runtime = createModuleRuntime('/usr/local/bin/loadplane', true);
  expect(runtime.command(new URL('file:///$bunfs/root/engine/main.ts'), 'load-tool-http/engine')).toEqual(['/usr/local/bin/loadplane', '__module', 'load-tool-http/engine']);
  expect(runtime.readable()).toEqual(['/usr/local/bin/loadplane']);
  expect(() => runtime.command(new URL('file:///$bunfs/root/x.ts'))).toThrow('has no id');
});
