/** At start: rebuilds the admin UI (ui/dist) when its sources changed since the last build, so `npm start` serves the current UI. */
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import type { Logger } from '../../../core/kernel/logger.ts';
import { buildUi, builtSourceHash, uiSourceHash } from '../../../ui/build.ts';

const uiSources = fileURLToPath(new URL('../../../ui/src/index.html', import.meta.url));

/**
 * One log line when it builds (about a second), none when the build is current. A failure never stops the service: the
 * API works without the UI, and `/` then says how to build it.
 */
export async function buildUiAtStart(logger: Logger): Promise<void> {
  // A checkout without the UI's sources (an image that ships only ui/dist) serves what it has.
  if (!existsSync(uiSources)) return;
  try {
    const [built, current] = await Promise.all([builtSourceHash(), uiSourceHash()]);
    if (built === current) return;
    const result = await buildUi();
    logger.info(built === null ? 'built the admin UI' : 'rebuilt the admin UI: its sources changed', {
      files: result.files.length,
      ms: result.millis,
    });
  } catch (error) {
    logger.warn('the admin UI could not be built; / answers 503 until `npm run build` succeeds', {
      error: (error as Error).message.split('\n').slice(0, 6).join(' | '),
    });
  }
}
