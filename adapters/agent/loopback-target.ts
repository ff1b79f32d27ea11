/** The agent's loopback target for calibration (core/ports/loopback-target.ts): Bun's server on 127.0.0.1, any free port, 200 `ok`. */
import type { LoopbackTarget } from '../../core/ports/loopback-target.ts';

export async function startLoopbackTarget(): Promise<LoopbackTarget> {
  // Bun's own server: the cheapest answer this runtime has, so the figure is the engine's rate more than the target's.
  const server = Bun.serve({ hostname: '127.0.0.1', port: 0, fetch: () => new Response('ok') });
  return {
    url: `http://127.0.0.1:${server.port}`,
    async stop() {
      await server.stop(true);
    },
  };
}
