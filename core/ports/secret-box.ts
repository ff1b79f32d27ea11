/** The secret-box port: seals secrets at rest with the service's SECRET_KEY (webhook signing secrets, env-var values). */
import { defineCapability } from '../kernel/define-capability.ts';
import type { SecretBox } from '../domain/secret-box.ts';

export type { SecretBox } from '../domain/secret-box.ts';

export const secretBoxPort = defineCapability<SecretBox>({ id: 'port.secretBox', cardinality: 'one' });
