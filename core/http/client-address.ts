/**
 * The peer address of a request, noted by the app when the request arrives (Elysia's `server.requestIP`), so code that
 * only holds the Request (authentication) can limit per client. In-process requests (`app.handle`) and runtimes that
 * give no socket address have none: per-address limits then do not apply to them.
 */

const addresses = new WeakMap<Request, string>();

export function noteClientAddress(request: Request, server: { requestIP(request: Request): { address: string } | null } | null): void {
  const address = server?.requestIP(request)?.address;
  if (address) addresses.set(request, address);
}

export const clientAddressOf = (request: Request): string | null => addresses.get(request) ?? null;
