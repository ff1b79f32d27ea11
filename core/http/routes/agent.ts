/** /agent: the WebSocket agents dial out to (no inbound port on load generators), authenticated with an API token. */
import { Elysia } from 'elysia';
import { DomainError } from '../../kernel/errors.ts';
import type { AgentSession } from '../../services/runs/agent-sessions.ts';
import { errorResponse } from '../error-mapper.ts';
import type { RouteDeps } from '../route-deps.ts';
import { enforcePolicy } from '../route-policy.ts';
import { type KeepAlive, startKeepAlive } from '../ws-keep-alive.ts';

type Slot = { session?: AgentSession; early?: unknown[]; forget?: () => void; keepAlive?: KeepAlive };
// Elysia hands `pong` Bun's own socket, not its wrapper with `raw`: both carry the upgrade's `data`.
const slotOf = (ws: { raw?: unknown }) => ((ws.raw ?? ws) as { data: { agent?: Slot } }).data;

export const agentRoutes = (deps: RouteDeps) =>
  new Elysia({ normalize: false, detail: { tags: ['Agents'] } }).ws('/agent', {
    async beforeHandle({ request }) {
      try {
        enforcePolicy(await deps.authenticate(request), 'GET', '/api/v1/agent');
      } catch (error) {
        if (error instanceof DomainError) return errorResponse(error);
        throw error;
      }
    },
    async open(ws) {
      const data = slotOf(ws);
      const slot: Slot = (data.agent ??= {});
      let caller;
      try {
        // Checked before the upgrade already; this only fails if the token died in between.
        caller = await deps.authenticate(new Request('http://localhost', { headers: ws.data.headers as Record<string, string> }));
      } catch {
        ws.close(1008, 'not authorized');
        return;
      }
      const request = new Request('http://localhost', { headers: ws.data.headers as Record<string, string> });
      // A revoked or rotated agent token, or its owner's lost rights, disconnect the agent at once.
      slot.forget = deps.live.add({
        async stillAllowed() {
          try {
            enforcePolicy(await deps.authenticate(request), 'GET', '/api/v1/agent');
            return true;
          } catch (error) {
            if (error instanceof DomainError) return false;
            throw error;
          }
        },
        close: () => ws.close(4401, 'access revoked'),
      });
      // A vanished agent (its host lost power, a half-open connection) is cut when its pongs stop, so its machine goes
      // offline; heartbeats alone would not notice, since the socket is what keeps the machine's presence.
      slot.keepAlive = startKeepAlive(ws, deps.wsKeepAlive);
      slot.session = deps.agentSessions.open(caller, {
        send: (message) => void ws.send(JSON.stringify(message)),
        close: (code, reason) => ws.close(code, reason),
      });
      // Messages that arrived while we authenticated are handled now, in order.
      for (const message of slot.early ?? []) void slot.session.onMessage(message);
      slot.early = undefined;
    },
    message(ws, message) {
      const slot: Slot = (slotOf(ws).agent ??= {});
      if (slot.session) void slot.session.onMessage(message);
      else (slot.early ??= []).push(message);
    },
    pong(ws) {
      slotOf(ws).agent?.keepAlive?.pong();
    },
    async close(ws) {
      slotOf(ws).agent?.keepAlive?.stop();
      slotOf(ws).agent?.forget?.();
      await slotOf(ws).agent?.session?.onClose();
    },
    // Elysia hands Bun only the app's websocket options: per route, idleTimeout and sendPings did nothing (the keep-alive
    // above does their job), and maxPayloadLength restates Bun's default of 16 MB.
    maxPayloadLength: 16 * 1024 * 1024,
    // OpenAPI has no WebSocket operation: documented as GET with 101 in api-docs.ts.
    detail: { hide: true },
  });
