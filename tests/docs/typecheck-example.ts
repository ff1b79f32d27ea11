/**
 * A TypeScript example type-checked as if it were a file of the folder it belongs in (its relative imports and
 * `loadplane/plugin` resolve from there), with the repository's compiler options. The file exists only in memory, so
 * nothing is written into the checkout; only the example's own errors count.
 */
import { join } from 'node:path';
import ts from 'typescript';
import { repoRoot } from '../helpers/service-process.ts';
import { type Example, placeOf } from './markdown-examples.ts';

const parsed = ts.getParsedCommandLineOfConfigFile(join(repoRoot, 'tsconfig.json'), {}, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'));
  },
})!;

export function typeErrors(example: Example, folder: string): string[] {
  const file = join(repoRoot, folder, `__example_${example.line}__.ts`);
  const host = ts.createCompilerHost(parsed.options);
  const getSourceFile = host.getSourceFile.bind(host);
  host.getSourceFile = (name, language, ...rest) =>
    name === file ? ts.createSourceFile(name, example.code, language) : getSourceFile(name, language, ...rest);
  host.fileExists = (name) => name === file || ts.sys.fileExists(name);
  host.readFile = (name) => (name === file ? example.code : ts.sys.readFile(name));
  const program = ts.createProgram([file], parsed.options, host);
  const source = program.getSourceFile(file)!;
  return [...program.getSyntacticDiagnostics(source), ...program.getSemanticDiagnostics(source)].map((diagnostic) => {
    const line = diagnostic.start === undefined ? 0 : source.getLineAndCharacterOfPosition(diagnostic.start).line + 1;
    return `${placeOf(example)}, its line ${line}: ${ts.flattenDiagnosticMessageText(diagnostic.messageText, ' ')}`;
  });
}
