/**
 * The pinned-fetch port: a streaming fetch for user-supplied URLs (ASK AI's model), every request checked by the
 * caller's `check` (the outbound URL guard) and connected only to the address that check allowed, redirects never
 * followed, the answer's body streamed and cut off past `maxResponseBytes`. Optional: a host without it leaves the
 * plugin to the webhook transport (the same guard and pinning, the answer read whole).
 */
import { defineCapability } from '../kernel/define-capability.ts';
import type { AddressCheck } from './remote-mcp.ts';

export type { AddressCheck } from './remote-mcp.ts';

export interface PinnedFetchOptions {
  check: AddressCheck;
  maxResponseBytes: number;
  signal?: AbortSignal;
}

export type PinnedFetch = (input: string | URL, init?: RequestInit) => Promise<Response>;

export type PinnedFetchFactory = (options: PinnedFetchOptions) => PinnedFetch;

export const pinnedFetchPort = defineCapability<PinnedFetchFactory>({ id: 'port.pinnedFetch', cardinality: 'one' });
