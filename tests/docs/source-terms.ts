/**
 * A command line or output line a plugin builds, as its README shows it: every flag (`--quiet`, `-Jsummariser.out`)
 * and every Loadplane marker (`loadplane:sample`, `@loadplane-metrics`, `LOADPLANE_*`) in the block must occur in the
 * named sources, so a flag the code dropped cannot stay in the README.
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/service-process.ts';
import { type Example, placeOf } from './markdown-examples.ts';

const sourceFile = /\.(ts|js|py|java|scala|go|sh|xml)$/;

function sourcesUnder(path: string): string {
  const full = join(repoRoot, path);
  if (!statSync(full).isDirectory()) return readFileSync(full, 'utf8');
  return readdirSync(full, { recursive: true, encoding: 'utf8' })
    .filter((file) => sourceFile.test(file) && !file.includes('node_modules') && !file.endsWith('.test.ts'))
    .map((file) => readFileSync(join(full, file), 'utf8'))
    .join('\n');
}

/** The flags and markers of a block. */
export function termsOf(block: string): string[] {
  // `<the same -J settings>` is a placeholder for the reader, not a flag (`-J<columns>` is a flag's placeholder value).
  const code = block.replace(/(^|\s)<[^<>\n]*>/g, ' ');
  const flags = [...code.matchAll(/(?<![\w<])(--?[A-Za-z][\w.-]*)(?![<\w.-])/g)].map((match) => match[1]!.replace(/[.-]+$/, ''));
  const markers = [...code.matchAll(/@?\bloadplane[:-][a-z][\w-]*|\bLOADPLANE_[A-Z_]+/g)].map((match) => match[0]);
  return [...new Set([...flags, ...markers])];
}

/** A term occurs when it is written as it is, or, for `-Jname` / `-Dname`, when the name is. */
function occurs(term: string, sources: string): boolean {
  if (/^-[A-Za-z]$/.test(term)) return sources.includes(`'${term}'`) || sources.includes(`"${term}"`);
  if (sources.includes(term)) return true;
  return /^-[JD]./.test(term) && sources.includes(term.slice(2));
}

export function checkSourceTerms(example: Example, paths: string): string[] {
  const sources = paths.split(/[\s,]+/).filter(Boolean).map(sourcesUnder).join('\n');
  const terms = termsOf(example.code);
  if (terms.length === 0) return [`${placeOf(example)}: no flag or marker to look for; mark it skip instead`];
  return terms.filter((term) => !occurs(term, sources)).map((term) => `${placeOf(example)}: "${term}" occurs nowhere in ${paths}`);
}
