import type { FastifyInstance, FastifyRequest } from 'fastify';
import { z } from 'zod';
import { ApiError } from '../../src/protocol/errors';
import type { ServerMessage } from '../../src/protocol/ws';
import { admitApiKey, authenticate, EmptyQuery, parse, type RouteMeta, type SessionCaller } from '../http/route';
import type { Services } from '../services/createServices';
import type { SocketHub } from './SocketHub';

/** The part of a `ws` WebSocket this adapter uses. */
interface RawSocket {
  readonly readyState: number;
  send(data: string): void;
  close(code?: number, reason?: string): void;
  on(event: 'message', listener: (data: unknown, isBinary: boolean) => void): unknown;
  on(event: 'close', listener: () => void): unknown;
}

const OPEN = 1;

/**
 * How often open sockets are checked against the sessions table: a session ended by another
 * process (several processes on one PostgreSQL) or expired is closed within this time. Sessions
 * ended in this process close at once (SessionService.onEnded).
 */
export const SOCKET_SESSION_SWEEP_MS = 30_000;

/** Browsers cannot set headers on a WebSocket: the cookie, or `?token=` for API clients. */
const SocketQuery = EmptyQuery.extend({ token: z.string().regex(/^[A-Za-z0-9_-]{1,128}$/).optional() });

/**
 * GET /api/ws: authenticates before the upgrade (401 on the handshake), then hands frames to the
 * hub. A plain GET without an upgrade is 400. A socket lives no longer than its session: it is
 * closed (1008 'Session ended') when the session is revoked or expires.
 */
export function registerSocketRoute(app: FastifyInstance, hub: SocketHub, services: Services): void {
  const stopListening = services.sessions.onEnded((hashes) => hub.closeSessions(hashes));
  const sweep = setInterval(() => void sweepSessions(hub, services, app), SOCKET_SESSION_SWEEP_MS);
  sweep.unref();
  app.addHook('onClose', async () => {
    clearInterval(sweep);
    stopListening();
  });

  const callers = new WeakMap<FastifyRequest, SessionCaller>();
  const meta: RouteMeta = {
    body: null,
    query: SocketQuery,
    params: null,
    auth: 'required',
    rateLimited: false,
    blockedWhenReadOnly: false,
  };

  app.route({
    method: 'GET',
    url: '/api/ws',
    config: { cairn: meta },
    preHandler: async (req, reply) => {
      const query = parse(SocketQuery, req.query, 'query');
      const caller = query.token
        ? await authenticateToken(query.token, services)
        : await authenticate(req, services);
      if (!caller) throw new ApiError('UNAUTHENTICATED', 'Please log in.');
      // Sockets live as long as a session: an API key (issue 24) is counted and refused.
      if (caller.via === 'apiKey') return admitApiKey(caller, false, services, reply);
      callers.set(req, caller);
    },
    handler: async () => {
      throw new ApiError('BAD_REQUEST', 'Expected a WebSocket upgrade');
    },
    wsHandler: (socket: RawSocket, req: FastifyRequest) => {
      const caller = callers.get(req);
      if (!caller) {
        socket.close(1008, 'Unauthenticated');
        return;
      }
      const session = hub.open({
        userId: caller.user.id,
        sessionHash: caller.session.tokenHash,
        expiresAt: caller.session.expiresAt,
        send: (message: ServerMessage) => {
          if (socket.readyState === OPEN) socket.send(JSON.stringify(message));
        },
        sendText: (text: string) => {
          if (socket.readyState === OPEN) socket.send(text);
        },
        close: (code, reason) => socket.close(code, reason),
      });
      socket.on('message', (data, isBinary) => {
        session.receive(isBinary ? '' : frameText(data));
      });
      socket.on('close', () => session.close());
    },
  });
}

/** Closes the sockets whose session expired or no longer exists (ended in another process). */
export async function sweepSessions(hub: SocketHub, services: Services, app: FastifyInstance): Promise<void> {
  try {
    const open = hub.closeExpired();
    const live = await services.sessions.liveOf(open);
    hub.closeSessions(open.filter((hash) => !live.has(hash)));
  } catch (error) {
    app.log.warn({ err: error }, 'socket session sweep failed');
  }
}

async function authenticateToken(token: string, services: Services): Promise<SessionCaller | null> {
  const session = await services.sessions.authenticate(token);
  const user = session ? await services.users.findById(session.userId) : null;
  return session && user ? { via: 'session', session, user } : null;
}

function frameText(data: unknown): string {
  if (Buffer.isBuffer(data)) return data.toString('utf8');
  if (Array.isArray(data)) return Buffer.concat(data.filter((part) => Buffer.isBuffer(part))).toString('utf8');
  if (data instanceof ArrayBuffer) return Buffer.from(data).toString('utf8');
  return '';
}
