/**
 * The tool-sandbox contract of the process runner: how a tool process is kept away from the agent's (and, for the
 * local agent, the service's) files, processes and secrets. An adapter-side port: the core's ProcessRunner stays as it
 * is, and only the runner on this runtime knows that a tool starts inside a sandbox.
 */

export interface SandboxedCommand {
  argv: string[];
  env: Record<string, string>;
}

export interface ToolSandbox {
  /** `bubblewrap` (isolated) or `none` (AGENT_SANDBOX=off: the operator accepted the risk). */
  readonly kind: 'bubblewrap' | 'none';
  /** What a tool can and cannot reach, in one line, for the agent's start log. */
  readonly summary: string;
  /** Where the runner makes work directories (null: the OS temp directory). */
  readonly workRoot: string | null;
  /**
   * True when the process the runner starts is the sandbox's monitor, not the tool: a SIGTERM meant for the tool must
   * then spare it (bubblewrap's monitor has no handler, dies at once and takes the sandbox down with SIGKILL), so the
   * tool still gets its grace period. SIGKILL goes to the whole group either way.
   */
  readonly monitorLeadsGroup: boolean;
  /** Hands a fresh work directory (and the files in it) to the user the tool runs as. */
  prepareWorkDir(path: string): Promise<void>;
  /** The command that starts `argv` inside the sandbox with `cwd`, the work directory, as its only writable place. */
  command(spec: { argv: string[]; cwd: string; env: Record<string, string> }): SandboxedCommand;
  /** Removes what the sandbox made (its work root). */
  dispose(): Promise<void>;
}

/** No isolation: the command as given. Only with AGENT_SANDBOX=off. */
export const unsandboxed: ToolSandbox = {
  kind: 'none',
  summary: 'none (AGENT_SANDBOX=off): tools run as this process\'s user and can read whatever it can',
  workRoot: null,
  monitorLeadsGroup: false,
  prepareWorkDir: async () => {},
  command: ({ argv, env }) => ({ argv, env }),
  dispose: async () => {},
};
