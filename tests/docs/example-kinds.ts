/**
 * What each example marker means, and the kind a block gets without one. A block whose kind is unknown, or that has
 * neither a marker nor a language with a default, is an error: a new example cannot escape the tests unnoticed.
 */
import type { Example, Marker } from './markdown-examples.ts';
import { placeOf } from './markdown-examples.ts';

/** Every kind a marker may name, and what the tests do with such a block. */
export const exampleKinds = {
  run: 'shell commands run in order, in one bash session per document, against a real service (curl fails on HTTP errors)',
  'starts-service': 'the commands that start the service (`npm ci`, `npm start`): the test starts it the same way',
  agent: 'starts an agent against the test service; it must register, then it is stopped',
  commands: 'shell commands too heavy or too outside to run here: syntax, npm scripts, files and agent flags checked',
  'test-script': 'the script of a test for the tool named after it: saved through the API (201) and run to completed',
  'otlp-env': 'OpenTelemetry exporter variables: sourced, then an OTLP request is sent the way they say',
  'terms-in': 'the shape of a command or line a plugin builds: its flags and markers must occur in the named sources',
  'tested-by': 'run by the named test file, which must read this document',
  typecheck: 'TypeScript type-checked as a file of the named folder, with the repository\'s compiler options',
  json: 'parsed as JSON',
  skip: 'not runnable (an output sample, a diagram): the note in parentheses must say why',
} as const;

export type ExampleKind = keyof typeof exampleKinds;

/** The kind of a block without a marker, by its language. */
const defaultKinds: Record<string, ExampleKind> = { sh: 'run', bash: 'run', json: 'json' };

/** Kinds whose marker must carry an argument, and what it names. */
const argumentOf: Partial<Record<ExampleKind, string>> = {
  'test-script': 'a tool id',
  'terms-in': 'source folders or files',
  'tested-by': 'a test file',
  typecheck: 'the folder the code belongs in',
};

export type Resolved = { kind: ExampleKind; marker: Marker } | { error: string };

export function resolveKind(example: Example): Resolved {
  const marker = example.marker ?? (defaultKinds[example.lang] ? { kind: defaultKinds[example.lang]!, arg: '', note: '' } : null);
  if (!marker) {
    return {
      error: `${placeOf(example)}: a \`${example.lang || 'plain'}\` block without an example marker; put \`<!-- example: kind ... -->\` before it (kinds: ${Object.keys(exampleKinds).join(', ')})`,
    };
  }
  if (!Object.hasOwn(exampleKinds, marker.kind)) return { error: `${placeOf(example)}: unknown example kind "${marker.kind}"` };
  const kind = marker.kind as ExampleKind;
  const needs = argumentOf[kind];
  if (needs && !marker.arg) return { error: `${placeOf(example)}: \`${kind}\` needs ${needs}` };
  if (kind === 'skip' && !marker.note) return { error: `${placeOf(example)}: \`skip\` needs the reason in parentheses` };
  return { kind, marker };
}
