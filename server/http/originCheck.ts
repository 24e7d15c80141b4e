/**
 * Cross-site request refusal (issue 18). Browsers send `Origin` on every state-changing request
 * and on every WebSocket handshake; a page on another site can make them too (a form post, a
 * body-less fetch, `new WebSocket`), carrying the user's cookie where the browser allows it. So a
 * request that carries an `Origin` other than PUBLIC_URL's is refused before any route runs.
 * Requests without one (curl, API clients with `Authorization`) are not from a browser page and
 * keep working.
 */
import type { FastifyRequest } from 'fastify';
import { ApiError } from '../../src/protocol/errors';
import { isApiPath } from './clientFiles';

const STATE_CHANGING = new Set(['POST', 'PUT', 'PATCH', 'DELETE']);
const SOCKET_PATH = '/api/ws';

/** Returns the check for an app served at `publicUrl`: throws 403 FORBIDDEN for a foreign origin. */
export function createOriginCheck(publicUrl: string): (req: FastifyRequest) => void {
  const allowed = new URL(publicUrl).origin;
  return (req) => {
    const origin = req.headers.origin;
    if (origin === undefined || !isApiPath(req.url)) return;
    const pathname = req.url.split('?')[0] ?? '';
    if (!STATE_CHANGING.has(req.method) && pathname !== SOCKET_PATH) return;
    if (originOf(origin) !== allowed) throw new ApiError('FORBIDDEN', 'Requests from another site are refused.');
  };
}

/** The serialised origin of an `Origin` header, or null (`null`, garbage). */
function originOf(header: string): string | null {
  try {
    const url = new URL(header);
    return url.origin === 'null' ? null : url.origin;
  } catch {
    return null;
  }
}
