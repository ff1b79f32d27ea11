/**
 * The env-var masker port: a workspace's masker (every environment variable's value replaced by `***`, as run logs
 * are masked), for plugins that pass text the service produced to a third party (ASK AI's model) and must never pass
 * a value along. The values themselves never leave the core: only the masking function does.
 */
import { defineCapability } from '../kernel/define-capability.ts';
import type { Masker } from '../domain/secret-masking.ts';

export type { Masker } from '../domain/secret-masking.ts';

export interface EnvVarMasker {
  /** The workspace's masker; null when it has no value to mask. */
  maskerFor(workspaceId: string): Promise<Masker | null>;
}

export const envVarMaskerPort = defineCapability<EnvVarMasker>({ id: 'port.envVarMasker', cardinality: 'one' });
