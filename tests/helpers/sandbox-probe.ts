/**
 * Runs one shell script through the agent's runner in the tool sandbox and prints what happened as JSON, so a test
 * can do it as another user (an unprivileged agent):
 *   bun tests/helpers/sandbox-probe.ts '{"hide": ["/path"], "readOnly": [], "script": "id -u"}'
 * prints {"summary", "lines": ["out:...", "err:..."], "exit": {code, signal}} or {"refusal": "..."}.
 */
import { openToolSandbox } from '../../adapters/process/sandbox/open-tool-sandbox.ts';
import { createNodeProcessRunner } from '../../adapters/process/node-process-runner.ts';

const request = JSON.parse(process.argv[2] ?? '{}') as { hide?: string[]; readOnly?: string[]; script: string };
const opened = await openToolSandbox({ mode: 'on', hide: request.hide ?? [], readOnly: request.readOnly ?? [] });
if (!opened.ok) {
  console.log(JSON.stringify({ refusal: opened.reason }));
} else {
  const runner = createNodeProcessRunner({ sandbox: opened.sandbox });
  const dir = await runner.makeWorkDir({ 'probe.sh': request.script });
  const lines: string[] = [];
  const proc = await runner.spawn({
    argv: ['sh', 'probe.sh'],
    cwd: dir.path,
    env: { PATH: '/usr/local/bin:/usr/bin:/bin', LANG: 'C.UTF-8' },
    onLine: (source, line) => lines.push(`${source}:${line}`),
  });
  const exit = await proc.exited;
  await dir.remove();
  await opened.sandbox.dispose();
  console.log(JSON.stringify({ summary: opened.sandbox.summary, lines, exit }));
}
