/**
 * Runs or checks one documentation example by its kind (example-kinds.ts) in a document's session, failing with the
 * example's place. Shell blocks must exit 0 and every run they follow to its end must complete.
 */
import { expect } from 'bun:test';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/service-process.ts';
import { runAgentExample } from './agent-example.ts';
import { checkCommands, commandsOf } from './command-examples.ts';
import type { DocsWorld } from './docs-service.ts';
import { resolveKind } from './example-kinds.ts';
import { type Example, placeOf } from './markdown-examples.ts';
import { runTestScript } from './script-examples.ts';
import { createShellSession, type ShellResult, type ShellSession, sseEvents } from './shell-session.ts';
import { checkSourceTerms } from './source-terms.ts';
import { typeErrors } from './typecheck-example.ts';

export interface DocSession {
  world: DocsWorld;
  shell: ShellSession;
  env: Record<string, string>;
  cwd: string;
}

/** A shell session for one document: its own HOME, the world's addresses for the made-up ones. */
export function openDocSession(world: DocsWorld, variables?: Record<string, string>): DocSession {
  const env = { PATH: process.env.PATH ?? '/usr/bin:/bin', HOME: join(world.home, 'home'), LANG: 'C.UTF-8', ...(process.env.CI ? { CI: process.env.CI } : {}) };
  const shell = createShellSession({
    cwd: world.home,
    env,
    substitutions: [
      ['http://localhost:8080', world.service.url],
      ['https://loadplane.example.com', world.service.url],
      ['https://hooks.example.com', world.receiver.url],
      ['psk_...', '$TOKEN'],
    ],
    ...(variables ? { variables } : {}),
  });
  return { world, shell, env, cwd: world.home };
}

const tail = (text: string) => text.slice(-3000);

function expectShellSuccess(example: Example, result: ShellResult): void {
  expect(result.status, `${placeOf(example)} exited ${result.status}\n--- stderr\n${tail(result.stderr)}\n--- stdout\n${tail(result.stdout)}`).toBe(0);
  for (const event of sseEvents(result.stdout)) {
    expect(event.type, `${placeOf(example)}: ${JSON.stringify(event)}`).not.toBe('error');
    if (event.type === 'done') expect(event.task?.status, `${placeOf(example)}: the run it followed: ${JSON.stringify(event.task)}`).toBe('completed');
  }
}

/** The block that starts the service: the test started it the same way (`npm start` is bun on main.ts). */
function checkStartsService(example: Example): void {
  const commands = commandsOf(example.code).map((words) => words.join(' '));
  expect(commands, placeOf(example)).toEqual(['npm ci', 'npm start']);
  const scripts = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> }).scripts;
  expect(scripts.start, 'startServiceProcess runs what npm start runs').toBe('bun adapters/runtime/bun/main.ts');
}

function checkTestedBy(example: Example, file: string): void {
  expect(existsSync(join(repoRoot, file)), `${placeOf(example)}: ${file} does not exist`).toBe(true);
  expect(readFileSync(join(repoRoot, file), 'utf8'), `${placeOf(example)}: ${file} does not read ${example.doc}`).toContain(example.doc);
}

/** Sources the exporter variables, then sends an (empty) OTLP/JSON export where and how they say. */
async function checkOtlpEnv(session: DocSession, example: Example): Promise<void> {
  const send = `curl -s -X POST "$OTEL_EXPORTER_OTLP_METRICS_ENDPOINT" -H "\${OTEL_EXPORTER_OTLP_METRICS_HEADERS/=/: }" -H 'content-type: application/json' -d '{"resourceMetrics":[]}'`;
  expectShellSuccess(example, await session.shell.run(`${example.code}\n${send}`));
}

/** Runs or checks `example`; a shell block's output, for checks of its own. */
export async function checkExample(session: DocSession, example: Example): Promise<ShellResult | null> {
  const resolved = resolveKind(example);
  if ('error' in resolved) throw new Error(resolved.error);
  const { kind, marker } = resolved;
  switch (kind) {
    case 'run': {
      const result = await session.shell.run(example.code);
      expectShellSuccess(example, result);
      return result;
    }
    case 'starts-service':
      checkStartsService(example);
      return null;
    case 'agent':
      await runAgentExample(session.world, session.shell, example, session.env, session.cwd);
      return null;
    case 'commands':
      expect(checkCommands(example)).toEqual([]);
      return null;
    case 'test-script':
      await runTestScript(session.world, example, marker.arg);
      return null;
    case 'otlp-env':
      await checkOtlpEnv(session, example);
      return null;
    case 'terms-in':
      expect(checkSourceTerms(example, marker.arg)).toEqual([]);
      return null;
    case 'tested-by':
      checkTestedBy(example, marker.arg);
      return null;
    case 'typecheck':
      expect(typeErrors(example, marker.arg)).toEqual([]);
      return null;
    case 'json':
      expect(() => JSON.parse(example.code), placeOf(example)).not.toThrow();
      return null;
    case 'skip':
      return null;
  }
}
