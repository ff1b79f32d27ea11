/**
 * Shell blocks that cannot run here (they install engines, start containers, run the whole suite): checked instead.
 * bash must parse them, every npm script they name must exist, every file they run must be there, `install-engines`
 * must know the engines named, every agent flag must be one `loadplane agent` takes, and `loadplane plugin` an action
 * and options it has. A command this file has no check for is an error, so an example does not slip through as
 * "commands" unseen.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { repoRoot } from '../helpers/service-process.ts';
import { type Example, placeOf } from './markdown-examples.ts';

const packageJson = JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { scripts: Record<string, string> };
const agentSource = readFileSync(join(repoRoot, 'adapters/runtime/bun/agent-command.ts'), 'utf8');
const pluginCommandSource = readFileSync(join(repoRoot, 'adapters/runtime/bun/plugin-command.ts'), 'utf8');
const engines = readdirSync(join(repoRoot, 'scripts/engines')).filter((f) => f.endsWith('.sh')).map((f) => f.slice(0, -3));

/** Programs outside this repository that examples may name; nothing of ours to check in them. */
const outsidePrograms = new Set(['apt-get', 'cd', 'cp', 'curl', 'export', 'go', 'install', 'journalctl', 'pip', 'sudo', 'systemctl', 'useradd']);

/** The block's commands: continuation lines joined, comments dropped, split at `&&`, `||`, `;` and `|`. */
export function commandsOf(code: string): string[][] {
  return code
    .replace(/\\\n/g, ' ')
    .split('\n')
    .map((line) => line.replace(/(^|\s)#.*$/, ''))
    .flatMap((line) => line.split(/&&|\|\||;|\|/))
    .map((command) => command.trim().split(/\s+/).filter(Boolean))
    .map((words) => words.slice(words.findIndex((word) => !/^[A-Za-z_][A-Za-z0-9_]*=/.test(word))))
    .filter((words) => words.length > 0 && words[0] !== undefined);
}

function fileExists(example: Example, path: string): boolean {
  return existsSync(join(repoRoot, path)) || existsSync(join(repoRoot, dirname(example.doc), path));
}

function checkAgentFlags(args: string[]): string[] {
  return args
    .filter((arg) => arg.startsWith('--'))
    .map((arg) => arg.split('=')[0]!)
    .filter((flag) => !agentSource.includes(`'${flag.slice(2)}'`) && !agentSource.includes(`${flag.slice(2)}:`))
    .map((flag) => `\`loadplane agent\` has no option ${flag}`);
}

/** `loadplane plugin <action> ...`: an action its usage names, and only options it takes. */
function checkPluginCommand(args: string[]): string[] {
  const [action, ...rest] = args;
  const problems = ['install', 'list', 'remove'].includes(action ?? '') ? [] : [`\`loadplane plugin\` has no action "${action}"`];
  const flags = rest.filter((arg) => arg.startsWith('--')).map((arg) => arg.split('=')[0]!);
  return [...problems, ...flags.filter((flag) => !pluginCommandSource.includes(`${flag.slice(2)}: { type:`)).map((flag) => `\`loadplane plugin\` has no option ${flag}`)];
}

function checkCommand(example: Example, words: string[]): string[] {
  const [program, ...args] = words as [string, ...string[]];
  if (outsidePrograms.has(program)) return [];
  if (program === 'npm') {
    const [sub, ...rest] = args;
    if (sub === 'ci' || sub === 'start' || sub === 'test' || sub === 'install' || sub === 'pack') return [];
    if (sub !== 'run') return [`npm ${sub}: no check for it`];
    const [name, ...more] = rest.filter((arg) => arg !== '--silent');
    if (!name || !Object.hasOwn(packageJson.scripts, name)) return [`package.json has no script "${name}"`];
    const passed = more.slice(more.indexOf('--') + 1);
    if (name === 'agent') return checkAgentFlags(passed);
    if (name === 'loadplane' && passed[0] === 'agent') return checkAgentFlags(passed.slice(1));
    if (name === 'loadplane' && passed[0] === 'plugin') return checkPluginCommand(passed.slice(1));
    return [];
  }
  if (program === 'loadplane') {
    if (args[0] === 'plugin') return checkPluginCommand(args.slice(1));
    return args[0] === 'agent' ? checkAgentFlags(args.slice(1)) : [`loadplane has no command "${args[0]}"`];
  }
  if (program === 'bash' || program === 'sh') {
    const [file, ...rest] = args;
    if (!file || !fileExists(example, file)) return [`${program} ${file}: no such file`];
    if (file.endsWith('install-engines')) return rest.filter((engine) => !engines.includes(engine)).map((engine) => `install-engines knows no engine "${engine}"`);
    return [];
  }
  if (program === 'docker' || program === 'docker-compose') return fileExists(example, 'compose.yaml') ? [] : ['no compose.yaml'];
  if (program === 'bun' || program === 'npx') {
    const rest = program === 'npx' ? args.slice(1) : args;
    if ((program === 'npx' && args[0] !== 'bun') || rest[0] !== 'test') return [`${words.join(' ')}: no check for it`];
    return rest.slice(1).filter((arg) => !arg.startsWith('-') && !fileExists(example, arg)).map((path) => `bun test ${path}: no such path`);
  }
  return [`no check for the command "${program}" (tests/docs/command-examples.ts)`];
}

/** What is wrong with a `commands` block; empty when nothing is. */
export function checkCommands(example: Example): string[] {
  const syntax = spawnSync('bash', ['-n'], { input: example.code, encoding: 'utf8' });
  const problems = syntax.status === 0 ? [] : [`bash cannot parse it: ${syntax.stderr.trim()}`];
  problems.push(...commandsOf(example.code).flatMap((words) => checkCommand(example, words)));
  return problems.map((problem) => `${placeOf(example)}: ${problem}`);
}
