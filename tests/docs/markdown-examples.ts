/**
 * The fenced code blocks of a markdown document, each with the example marker written right before it
 * (`<!-- example: kind [arg] [(note)] -->`), its section heading and its line, so a test can run every one.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { repoRoot } from '../helpers/service-process.ts';

export interface Marker {
  kind: string;
  /** What the kind works on: a tool, a path; empty when none. */
  arg: string;
  /** The part in parentheses: why a block is skipped, what it shows. */
  note: string;
}

export interface Example {
  /** The document, relative to the repository. */
  doc: string;
  /** 1-based line of the opening fence. */
  line: number;
  /** The first word of the fence's info string ('' without one). */
  lang: string;
  code: string;
  /** The nearest heading above the block, without its #s. */
  section: string;
  marker: Marker | null;
}

export interface ParsedDocument {
  examples: Example[];
  /** Markers with no block right after them, and fences that never close: mistakes to report, not to guess around. */
  problems: string[];
}

const markerPattern = /^\s*<!--\s*example:\s*(.*?)\s*-->\s*$/;
const fencePattern = /^(\s*)(`{3,}|~{3,})\s*([^`\s]*)/;

export function parseMarker(text: string): Marker {
  const note = /\((.*)\)\s*$/.exec(text);
  const head = (note ? text.slice(0, note.index) : text).trim();
  const [kind = '', ...rest] = head.split(/\s+/);
  return { kind, arg: rest.join(' '), note: note?.[1]?.trim() ?? '' };
}

export function parseExamples(doc: string, text: string): ParsedDocument {
  const lines = text.split('\n');
  const examples: Example[] = [];
  const problems: string[] = [];
  let section = '';
  let pending: { marker: Marker; line: number } | null = null;
  for (let i = 0; i < lines.length; i++) {
    const line = lines[i]!;
    const marker = markerPattern.exec(line);
    if (marker) {
      if (pending) problems.push(`${doc}:${pending.line}: example marker with no code block after it`);
      pending = { marker: parseMarker(marker[1]!), line: i + 1 };
      continue;
    }
    const fence = fencePattern.exec(line);
    if (!fence) {
      if (line.trim() !== '') {
        if (pending) problems.push(`${doc}:${pending.line}: example marker with no code block after it`);
        pending = null;
      }
      const heading = /^#{1,6}\s+(.*)$/.exec(line);
      if (heading) section = heading[1]!.trim();
      continue;
    }
    const [, indent = '', chars = '', lang = ''] = fence;
    const close = new RegExp(`^\\s*${chars[0] === '`' ? '`' : '~'}{${chars.length},}\\s*$`);
    const end = lines.findIndex((candidate, j) => j > i && close.test(candidate));
    if (end < 0) {
      problems.push(`${doc}:${i + 1}: a code block that never closes`);
      break;
    }
    const code = lines
      .slice(i + 1, end)
      .map((codeLine) => (codeLine.startsWith(indent) ? codeLine.slice(indent.length) : codeLine.trimStart()))
      .join('\n');
    examples.push({ doc, line: i + 1, lang: lang.toLowerCase(), code: `${code}\n`, section, marker: pending?.marker ?? null });
    pending = null;
    i = end;
  }
  if (pending) problems.push(`${doc}:${pending.line}: example marker with no code block after it`);
  return { examples, problems };
}

/** Reads `doc` (relative to the repository) and parses its examples. */
export function readExamples(doc: string): ParsedDocument {
  return parseExamples(doc, readFileSync(join(repoRoot, doc), 'utf8'));
}

/** Where an example is, for messages: `README.md:42 (Quick start)`. */
export const placeOf = (example: Example) => `${example.doc}:${example.line} (${example.section})`;
