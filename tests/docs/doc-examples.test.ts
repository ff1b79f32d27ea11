/**
 * Every code block of docs/*.md and of the plugins' READMEs (plugins/*, examples/*), run or checked by its kind
 * (example-kinds.ts) against one real service: shell blocks in a bash session per document that starts with an admin's
 * API token in $TOKEN, as the README's quick start leaves it; test scripts saved and run on the local agent. A new
 * document is included by itself; one left out must be named below with the reason.
 */
import { afterAll, beforeAll, describe, expect, test } from 'bun:test';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/service-process.ts';
import { checkExample, openDocSession } from './check-example.ts';
import { type DocsWorld, startDocsWorld } from './docs-service.ts';
import { resolveKind } from './example-kinds.ts';
import { readExamples } from './markdown-examples.ts';

/** Documents whose blocks are not (yet) examples to run, and why. */
const leftOut: Record<string, string> = {
  'docs/benchmarks.md': 'measurements: commands and their printed results, kept as they were taken',
};

const markdownIn = (dir: string) =>
  readdirSync(join(repoRoot, dir))
    .filter((file) => file.endsWith('.md'))
    .map((file) => `${dir}/${file}`);
const readmesIn = (dir: string) =>
  readdirSync(join(repoRoot, dir), { withFileTypes: true })
    .filter((entry) => entry.isDirectory() && readdirSync(join(repoRoot, dir, entry.name)).includes('README.md'))
    .map((entry) => `${dir}/${entry.name}/README.md`);

const documents = [...markdownIn('docs'), ...readmesIn('plugins'), ...readmesIn('examples')].filter((doc) => !Object.hasOwn(leftOut, doc)).sort();

let world: DocsWorld | null = null;

beforeAll(async () => {
  world = await startDocsWorld();
}, 90_000);

afterAll(async () => {
  await world?.stop();
});

describe('documentation examples', () => {
  test('every code block of every document has a kind the tests know', () => {
    expect(documents.length).toBeGreaterThan(10);
    const problems = documents.flatMap((doc) => {
      const parsed = readExamples(doc);
      return [...parsed.problems, ...parsed.examples.map(resolveKind).flatMap((resolved) => ('error' in resolved ? [resolved.error] : []))];
    });
    expect(problems).toEqual([]);
  });

  for (const doc of documents) {
    test(doc, async () => {
      const session = openDocSession(world!, { TOKEN: await world!.adminToken() });
      for (const example of readExamples(doc).examples) await checkExample(session, example);
      if (doc === 'docs/webhooks.md') {
        // Its example sends a test.ping: the delivery reached the endpoint it named, signed.
        const received = await world!.receiver.waitFor((hooks) => hooks.some((hook) => hook.body.event === 'test.ping'));
        expect(received.find((hook) => hook.body.event === 'test.ping')!.headers['x-service-signature']).toMatch(/^t=\d+,v1=[0-9a-f]{64}$/);
      }
    }, 300_000);
  }
});
