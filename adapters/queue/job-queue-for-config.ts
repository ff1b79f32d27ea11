/** Picks the job queue for a config: Agenda on a PostgreSQL server; in-process timers (the boot default) with embedded PGlite. */
import type { Config } from '../../config/schema.ts';
import type { BootOptions } from '../../core/boot-service.ts';
import type { Logger } from '../../core/kernel/logger.ts';
import { createAgendaJobQueue } from './agenda/agenda-job-queue.ts';

export function jobQueueForConfig(config: Readonly<Config>, logger: Logger): BootOptions['jobQueue'] {
  const url = config.databaseUrl;
  return url ? async () => createAgendaJobQueue({ connectionString: url, logger: logger.child({ part: 'agenda' }) }) : undefined;
}
