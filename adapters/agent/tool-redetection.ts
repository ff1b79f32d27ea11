/**
 * Engines installed while the agent runs: every so often (10 s by default) the agent looks again for what its host did
 * not find, the engines and programs its plugins asked for (a few file checks, no engine is run), and only when one is
 * there now sets the host up again: the plugins (which find the engine and its version), the sandbox (which must let
 * runs read it), the tool report; the server then hears the new tools. Periodic rather than on demand: the server never
 * needs to know which agent could run what, and an install is seen within one interval whether a run waits or not.
 */
import type { Logger } from '../../core/kernel/logger.ts';

export interface RedetectableHost {
  /** One of the engines or programs not found when the host was set up is there now. */
  foundSince(): boolean;
  dispose(): Promise<void>;
}

export interface ToolRedetection<Host> {
  /** The host in use now. */
  current(): Host;
  /** Stops looking and disposes every host it made, the current one included. */
  stop(): Promise<void>;
}

export function watchForNewTools<Host extends RedetectableHost>(options: {
  host: Host;
  /** Between two looks; 0 turns the watch off. */
  intervalMillis: number;
  /** A host set up anew, with the same plugins and settings. */
  rebuild(): Promise<Host>;
  /** The new host replaced the old one: tell the agent (and the person at the terminal). */
  onNewHost(host: Host): void;
  logger: Logger;
}): ToolRedetection<Host> {
  let host = options.host;
  // Replaced hosts stay until the agent stops: a run started on one still uses its runner and sandbox.
  const replaced: Host[] = [];
  let stopped = false;
  let timer: ReturnType<typeof setTimeout> | null = null;
  let looking: Promise<void> | null = null;

  async function look() {
    if (!host.foundSince()) return;
    options.logger.info('an engine or program missing at start is there now; looking at the load tools again');
    const next = await options.rebuild();
    if (stopped) {
      await next.dispose();
      return;
    }
    replaced.push(host);
    host = next;
    options.onNewHost(next);
  }

  function schedule() {
    if (stopped || options.intervalMillis <= 0) return;
    timer = setTimeout(() => {
      looking = look()
        .catch((error) => options.logger.warn('looking for new load tools failed', { error: String(error) }))
        .finally(() => {
          looking = null;
          schedule();
        });
    }, options.intervalMillis);
    // Never what keeps the process alive.
    (timer as { unref?: () => void }).unref?.();
  }
  schedule();

  return {
    current: () => host,
    async stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
      await looking;
      for (const old of [...replaced, host]) await old.dispose();
    },
  };
}
