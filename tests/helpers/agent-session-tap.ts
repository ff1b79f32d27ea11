/**
 * Watches the agent sockets of an in-process service from the server's side: per socket, the hello's hostname, the
 * heartbeats received, and how it ended (closed by the server, with which code, or by the agent). Wraps the service's
 * agent sessions, so it sees exactly what the real route hands them; install it before the agents connect.
 */
import type { Service } from '../../core/boot-service.ts';

export interface TappedSocket {
  hostname: string | null;
  heartbeats: number;
  /** The code the server closed it with (a replacement: 4409), or null. */
  closedByServer: number | null;
  /** The socket has ended (either side). */
  ended: boolean;
}

function parsed(raw: unknown): { type?: string; hostname?: string } | null {
  try {
    return (typeof raw === 'string' ? JSON.parse(raw) : raw) as { type?: string; hostname?: string } | null;
  } catch {
    return null; // not JSON: the session answers that
  }
}

export function tapAgentSessions(service: Service) {
  const sessions = service.runs.sessions;
  const open = sessions.open.bind(sessions);
  const sockets: TappedSocket[] = [];
  sessions.open = (caller, transport) => {
    const socket: TappedSocket = { hostname: null, heartbeats: 0, closedByServer: null, ended: false };
    sockets.push(socket);
    const session = open(caller, {
      send: (message) => transport.send(message),
      close: (code, reason) => {
        socket.closedByServer = code;
        transport.close(code, reason);
      },
    });
    return {
      onMessage(raw) {
        const message = parsed(raw);
        if (message?.type === 'hello') socket.hostname = message.hostname ?? null;
        if (message?.type === 'heartbeat') socket.heartbeats++;
        return session.onMessage(raw);
      },
      async onClose() {
        socket.ended = true;
        await session.onClose();
      },
    };
  };
  return {
    sockets,
    /** The sockets whose hello named `hostname`. */
    of: (hostname: string) => sockets.filter((socket) => socket.hostname === hostname),
  };
}
