/**
 * The checks of the documentation's examples catch what they are for: an unmarked block, a bad marker, an HTTP
 * error inside a shell example, a script npm does not have, a flag the code dropped, a type error.
 */
import { afterAll, describe, expect, test } from 'bun:test';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { checkCommands } from './command-examples.ts';
import { resolveKind } from './example-kinds.ts';
import { parseExamples } from './markdown-examples.ts';
import { createShellSession } from './shell-session.ts';
import { checkSourceTerms } from './source-terms.ts';
import { typeErrors } from './typecheck-example.ts';

const fence = '```';
const one = (markdown: string) => parseExamples('x.md', markdown).examples[0]!;

describe('markers and kinds', () => {
  test('a marker gives kind, argument and note; a shell block defaults to run; others need a marker', () => {
    const parsed = parseExamples(
      'x.md',
      `# A\n<!-- example: test-script k6 (a note) -->\n${fence}js\nexport default function () {}\n${fence}\n\n## B\n${fence}sh\necho hi\n${fence}\n${fence}\nplain\n${fence}\n`,
    );
    expect(parsed.problems).toEqual([]);
    const [script, shell, plain] = parsed.examples;
    expect(script).toMatchObject({ line: 3, lang: 'js', section: 'A', marker: { kind: 'test-script', arg: 'k6', note: 'a note' } });
    expect(resolveKind(shell!)).toMatchObject({ kind: 'run' });
    expect(resolveKind(plain!)).toEqual({ error: expect.stringContaining('x.md:11 (B): a `plain` block without an example marker') });
  });

  test('an unknown kind, a skip without its reason, a kind without its argument, a marker without a block', () => {
    expect(resolveKind(one(`<!-- example: sometimes -->\n${fence}sh\nls\n${fence}\n`))).toEqual({ error: expect.stringContaining('unknown example kind') });
    expect(resolveKind(one(`<!-- example: skip -->\n${fence}\nx\n${fence}\n`))).toEqual({ error: expect.stringContaining('needs the reason') });
    expect(resolveKind(one(`<!-- example: test-script -->\n${fence}\nx\n${fence}\n`))).toEqual({ error: expect.stringContaining('needs a tool id') });
    expect(parseExamples('x.md', '<!-- example: run -->\ntext\n').problems).toEqual(['x.md:1: example marker with no code block after it']);
  });
});

describe('shell sessions', () => {
  const dirs: string[] = [];
  afterAll(async () => {
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  test('variables carry from block to block; an HTTP error answer fails the block even through a pipe', async () => {
    const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: (request) => new Response('x', { status: request.url.endsWith('/ok') ? 200 : 404 }) });
    try {
      const cwd = await mkdtemp(join(tmpdir(), 'shell-session-'));
      dirs.push(cwd);
      const session = createShellSession({ cwd, env: { PATH: process.env.PATH ?? '' }, substitutions: [['http://localhost:8080', server.url.origin]] });
      expect((await session.run('GREETING=hello')).status).toBe(0);
      expect((await session.run('echo "$GREETING"')).stdout).toBe('hello\n');
      expect((await session.run('curl -s http://localhost:8080/ok | cat')).status).toBe(0);
      expect((await session.run('curl -s http://localhost:8080/missing | cat')).status).toBe(22);
    } finally {
      server.stop(true);
    }
  });
});

describe('static checks', () => {
  test('commands: an npm script, an agent flag, an engine or a program nobody checks are errors', () => {
    const problems = checkCommands(one(`${fence}sh\nnpm run nonesuch\nnpm run agent -- --colour red\nbash scripts/install-engines k6 wrk\nfrobnicate now\n${fence}\n`));
    expect(problems.map((problem) => problem.replace(/^x\.md:1 \(\): /, ''))).toEqual([
      'package.json has no script "nonesuch"',
      '`loadplane agent` has no option --colour',
      'install-engines knows no engine "wrk"',
      'no check for the command "frobnicate" (tests/docs/command-examples.ts)',
    ]);
  });

  test('commands: `loadplane plugin` takes install, list and remove, with its own options only', () => {
    const problems = checkCommands(one(`${fence}sh\nloadplane plugin install --agent ./x.tgz\nloadplane plugin upgrade x\nnpm run loadplane -- plugin list --all\n${fence}\n`));
    expect(problems.map((problem) => problem.replace(/^x\.md:1 \(\): /, ''))).toEqual([
      '`loadplane plugin` has no action "upgrade"',
      '`loadplane plugin` has no option --all',
    ]);
  });

  test('terms-in: a flag the plugin does not build is an error', () => {
    expect(checkSourceTerms(one(`${fence}\nk6 run --quiet --no-such-flag script.js\n${fence}\n`), 'plugins/load-tool-k6')).toEqual([
      'x.md:1 (): "--no-such-flag" occurs nowhere in plugins/load-tool-k6',
    ]);
  });

  test('typecheck: a wrong type in an example is an error, with its line', () => {
    const errors = typeErrors(one(`${fence}ts\nimport { splitLoadConfig } from '@loadplane/plugin-kit';\nconst n: string = splitLoadConfig({ vus: 2, duration: '1s' }, 0, 1);\n${fence}\n`), 'examples/loadplane-plugin-hey');
    expect(errors, errors.join('\n')).toHaveLength(1);
    expect(errors[0]).toContain('its line 2');
  });
});
