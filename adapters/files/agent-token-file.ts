/** AGENT_TOKEN_FILE on disk: the bootstrap agent's token (core/services/runs/bootstrap-agent-token.ts), written whole and owner-only. */
import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { Service } from '../../core/boot-service.ts';
import type { Logger } from '../../core/kernel/logger.ts';
import { keepBootstrapAgentToken } from '../../core/services/runs/bootstrap-agent-token.ts';

export async function provideAgentTokenFile(service: Pick<Service, 'database' | 'bootstrapWorkspaceId'>, path: string, logger: Logger): Promise<void> {
  const outcome = await keepBootstrapAgentToken(service.database, service.bootstrapWorkspaceId, {
    async read() {
      try {
        return await readFile(path, 'utf8');
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') return null;
        throw error;
      }
    },
    async write(token) {
      // The agent reads it as the same user (compose runs both as `node`); `loadplane agent --token-file` refuses a
      // file every user may read. A rename, so a reader never sees half a token.
      await mkdir(dirname(path), { recursive: true, mode: 0o700 });
      const temporary = `${path}.${crypto.randomUUID()}.tmp`;
      await writeFile(temporary, `${token}\n`, { mode: 0o600 });
      await rename(temporary, path);
    },
  });
  logger.info(outcome === 'written' ? 'agent token written' : 'agent token kept', {
    file: path,
    // Where it goes: an agent of the first workspace (the bootstrap admin's) with scopes machines:write and runs:write.
    use: `loadplane agent --token-file ${path}`,
  });
}
