/** Load configurations: named VUs + duration or stages, used by runs through configId and mapped to each tool. */
import type { LoadConfig } from '../capabilities/load-tool.ts';
import { LoadConfigEntity } from '../domain/entities/load-config.ts';
import { validateLoadConfig } from '../domain/load-config.ts';
import { checkName } from '../domain/test-rules.ts';
import type { Database } from '../ports/database.ts';
import { recordAudit } from './audit-log.ts';
import type { Caller } from './caller.ts';
import type { PageFilter } from './machines.ts';
import { findInWorkspace } from './workspace-scope.ts';

export interface ConfigInput extends LoadConfig {
  name: string;
}

export function toConfigView(config: LoadConfigEntity) {
  return {
    id: config.id,
    name: config.name,
    vus: config.vus ?? null,
    duration: config.duration ?? null,
    stages: config.stages ?? null,
    created_at: config.createdAt.toISOString(),
    updated_at: config.updatedAt.toISOString(),
  };
}

export const loadConfigOf = (config: LoadConfigEntity): LoadConfig =>
  config.stages ? { stages: config.stages } : { vus: config.vus ?? undefined, duration: config.duration ?? undefined };

export function createConfigService(deps: { db: Database }) {
  const find = (caller: Caller, id: string) =>
    findInWorkspace(deps.db.fork(), LoadConfigEntity, caller.workspace.workspaceId, id, 'config');

  return {
    find,
    async list(caller: Caller, page: PageFilter) {
      return deps.db.fork().find(
        LoadConfigEntity,
        { workspaceId: caller.workspace.workspaceId, ...page.filter },
        { orderBy: { createdAt: 'desc', id: 'desc' }, limit: page.limit + 1 },
      );
    },
    async create(caller: Caller, input: ConfigInput) {
      const load = validateLoadConfig({ vus: input.vus, duration: input.duration, stages: input.stages });
      const em = deps.db.fork();
      const now = new Date();
      const config = em.create(LoadConfigEntity, {
        id: crypto.randomUUID(),
        workspaceId: caller.workspace.workspaceId,
        name: checkName(input.name),
        vus: load.vus ?? null,
        duration: load.duration ?? null,
        stages: load.stages ?? null,
        createdAt: now,
        updatedAt: now,
      });
      recordAudit(em, caller, 'config.created', { type: 'config', id: config.id, label: config.name });
      await em.flush();
      return config;
    },
    async update(caller: Caller, id: string, input: Partial<ConfigInput>) {
      const em = deps.db.fork();
      const config = await findInWorkspace(em, LoadConfigEntity, caller.workspace.workspaceId, id, 'config');
      if (input.name !== undefined) config.name = checkName(input.name);
      if (input.vus !== undefined || input.duration !== undefined || input.stages !== undefined) {
        // A new shape replaces the old one whole: VUs + duration, or stages.
        const load = validateLoadConfig({ vus: input.vus, duration: input.duration, stages: input.stages });
        config.vus = load.vus ?? null;
        config.duration = load.duration ?? null;
        config.stages = load.stages ?? null;
      }
      config.updatedAt = new Date();
      await em.flush();
      return config;
    },
    async remove(caller: Caller, id: string) {
      const em = deps.db.fork();
      const config = await findInWorkspace(em, LoadConfigEntity, caller.workspace.workspaceId, id, 'config');
      em.remove(config);
      recordAudit(em, caller, 'config.deleted', { type: 'config', id: config.id, label: config.name });
      await em.flush();
    },
  };
}

export type ConfigService = ReturnType<typeof createConfigService>;
