/**
 * The environment every tool starts from, built from an allowlist: the agent's own environment (the whole service's,
 * for the local agent: DATABASE_URL, SECRET_KEY, AUTH_CLIENT_SECRET ...) never reaches a tool. The tool plugin adds
 * the run's own variables (LOADPLANE_TASK_ID ...); the sandbox sets HOME to the run's work directory. The workspace's
 * environment variables (the assignment's `env`) go under all of these: they add names, never replace these ones.
 */

export function toolBaseEnv(env: Readonly<Record<string, string | undefined>>): Record<string, string> {
  const base: Record<string, string> = {
    PATH: env.PATH || '/usr/local/bin:/usr/bin:/bin',
    HOME: env.HOME || '/tmp',
    // UTF-8 output whatever the machine's locale: the agent reads the tool's lines as UTF-8.
    LANG: 'C.UTF-8',
  };
  if (env.TZ) base.TZ = env.TZ;
  return base;
}
