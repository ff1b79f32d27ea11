/**
 * One engine in the engine-overhead benchmark (bench/engine-overhead.ts): the same load run by the engine alone, as its
 * user would start it, and as a Loadplane test through a real agent. Each engine has one file here exporting `leg`.
 */
export interface EngineLeg {
  /** The test's tool id (k6, jmeter, locust, gatling, artillery, ...). */
  readonly tool: string;
  /** The engine's name in `ps` (for its CPU share), e.g. 'k6', 'java', 'locust', 'node'. */
  readonly processName: string;
  /** The file name the alone leg saves the script under, e.g. 'script.js', 'plan.jmx', 'locustfile.py'. */
  readonly scriptFile: string;
  /** The test script hitting `targetUrl` + '/' as fast as each virtual user can (what POST /tests receives). */
  script(targetUrl: string): string;
  /**
   * The command running the engine alone on that script with `vus` users for `durationS` seconds (no ramp), from
   * `workDir` which holds the script as `scriptFile`: the command line a user would type, without the agent's extras.
   */
  aloneCommand(options: { workDir: string; vus: number; durationS: number; targetUrl: string }): { argv: string[]; env?: Record<string, string> };
}
