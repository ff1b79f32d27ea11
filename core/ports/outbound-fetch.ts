/** The outbound HTTP port: how the core reaches other services (an OIDC provider's discovery and JWKS). */
import { defineCapability } from '../kernel/define-capability.ts';

export type OutboundFetch = (request: Request) => Promise<Response>;

export const outboundFetchPort = defineCapability<OutboundFetch>({ id: 'port.outboundFetch', cardinality: 'one' });
