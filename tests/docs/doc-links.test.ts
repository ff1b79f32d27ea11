/**
 * Every relative link of the README, docs/ and the plugins' READMEs leads somewhere: the file exists, and a `#anchor`
 * into a markdown file names one of its headings (GitHub's slugs). Moving text between files cannot leave a dead link.
 */
import { expect, test } from 'bun:test';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import { repoRoot } from '../helpers/service-process.ts';

const documents = [
  'README.md',
  ...readdirSync(join(repoRoot, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`),
  ...['plugins', 'examples'].flatMap((dir) =>
    readdirSync(join(repoRoot, dir))
      .filter((name) => existsSync(join(repoRoot, dir, name, 'README.md')))
      .map((name) => `${dir}/${name}/README.md`),
  ),
];

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens. */
const slug = (heading: string) =>
  heading
    .toLowerCase()
    .replace(/[^\p{L}\p{N} _-]/gu, '')
    .replace(/ /g, '-');

const headingsOf = (file: string) =>
  new Set(
    readFileSync(join(repoRoot, file), 'utf8')
      .replace(/```[\s\S]*?```/g, '')
      .split('\n')
      .filter((line) => /^#{1,6} /.test(line))
      .map((line) => slug(line.replace(/^#+ /, '').trim())),
  );

test('relative links of the documentation lead to files and headings that exist', () => {
  const dead: string[] = [];
  for (const doc of documents) {
    const text = readFileSync(join(repoRoot, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/.test(target!)) continue;
      const [path = '', anchor] = target!.split('#');
      const file = path === '' ? doc : normalize(join(dirname(doc), path));
      if (!existsSync(join(repoRoot, file))) dead.push(`${doc}: ${target} (no ${file})`);
      else if (anchor && file.endsWith('.md') && !headingsOf(file).has(anchor)) dead.push(`${doc}: ${target} (no heading #${anchor})`);
    }
  }
  expect(dead).toEqual([]);
});
