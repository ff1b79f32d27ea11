#!/usr/bin/env bun
/**
 * `loadplane <command>`: the one command-line program (the package's `bin`, and the single executable that
 * `bun build --compile` makes of this file). Commands load on demand, by literal paths the bundler follows; nothing
 * but a command's own output goes to stdout (a protocol command such as `mcp` will need it clean).
 */
import { isSingleExecutable } from './single-executable.ts';

interface Command {
  summary: string;
  run(argv: readonly string[], env: Record<string, string | undefined>): Promise<void>;
}

const commands: Record<string, Command> = {
  agent: {
    summary: 'the agent of a load-generator machine: dials out to the service (no inbound port) and runs its tests',
    run: async (argv, env) => (await import('./agent-command.ts')).runAgentCommand(argv, env),
  },
  backup: {
    summary: "writes the service's database and DATA_DIR's files to one file (holds every secret: kept 0600)",
    run: async (argv, env) => (await import('./backup-command.ts')).runBackupCommand(argv, env),
  },
  restore: {
    summary: 'loads such a file into an empty database and DATA_DIR (the service stopped)',
    run: async (argv, env) => (await import('./backup-command.ts')).runRestoreCommand(argv, env),
  },
  run: {
    summary: 'starts a run of a test; with --wait follows it to its end and exits 0 passed, 1 failed: a CI gate (--junit FILE)',
    run: async (argv, env) => (await import('./run-command/run-command.ts')).runRunCommand(argv, env),
  },
  plugin: {
    summary: 'installs (lists, removes) a plugin package on this host, loaded at the next start: install <tarball|spec> [--agent]',
    run: async (argv, env) => (await import('./plugin-command.ts')).runPluginCommand(argv, env),
  },
  mcp: {
    summary: 'the MCP server over stdio for AI clients (SERVICE_API_URL, SERVICE_API_TOKEN); stdout carries only the protocol',
    run: async (argv, env) => (await import('./mcp-command.ts')).runMcpCommand(argv, env),
  },
};

const usage = `usage: loadplane <command> [options]

commands:
${Object.entries(commands)
  .map(([name, command]) => `  ${name.padEnd(8)}${command.summary}`)
  .join('\n')}

\`loadplane <command> --help\` shows a command's options. The service and the token come from LOADPLANE_URL and
LOADPLANE_TOKEN, or --server URL and --token-file FILE. In the repository: npm run --silent loadplane -- <command> ...`;

/**
 * Modules of built-in plugins that run as processes of their own (core/ports/module-runtime.ts), by id: a single
 * executable has no module files, so `loadplane __module <id> <args>` runs the one bundled here. Literal paths, so the
 * bundler takes them in.
 */
const bundledModules: Record<string, () => Promise<unknown>> = {
  'load-tool-http/engine': () => import('../../../plugins/load-tool-http/engine/main.ts'),
};

// A module (top-level await), with nothing to export.
export {};

const [commandName, ...rest] = process.argv.slice(2);
if (commandName === undefined) {
  console.error(usage);
  process.exit(2);
} else if (commandName === '__module') {
  const [id, ...moduleArgs] = rest;
  const load = id !== undefined && Object.hasOwn(bundledModules, id) ? bundledModules[id] : undefined;
  if (!load) {
    console.error(`loadplane: no bundled module "${id ?? ''}"`);
    process.exit(2);
  }
  // The module reads its own arguments from argv[2] on, as when its runtime runs it as a file.
  process.argv.splice(2, process.argv.length - 2, ...moduleArgs);
  await load();
} else if (commandName === 'help' || commandName === '--help' || commandName === '-h') {
  console.log(usage);
} else if (commandName === 'version' || commandName === '--version') {
  console.log((await import('../../agent/start-node-agent.ts')).agentVersion);
} else if (Object.hasOwn(commands, commandName)) {
  // Plugins installed on disk import `@loadplane/plugin-kit`: a single executable hands them its own copy.
  if (isSingleExecutable()) (await import('./bundled-plugin-kit.ts')).provideBundledPluginKit();
  await commands[commandName]!.run(rest, process.env);
} else {
  console.error(`loadplane: unknown command "${commandName}"\n\n${usage}`);
  process.exit(2);
}
