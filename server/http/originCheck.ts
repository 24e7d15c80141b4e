/**
 * Cross-site request refusal (issue 18). Browsers send `Origin` on every state-changing request
 * and on every WebSocket handshake; a page on another site can make them too (a form post, a
 * body-less fetch, `new WebSocket`), carrying the user's cookie where the browser allows it. So a
 * request that carries an `Origin` other than PUBLIC_URL's is refused before any route runs,
 * unless it is the very host the request was sent to (`Host`): the app opened at another address
 * of the same server (127.0.0.1 rather than localhost, a LAN address) is still the app, while a
 * page on another site always names its own host. Requests without an `Origin` (curl, API clients
 * with `Authorization`) are not from a browser page and keep working.
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
    const from = urlOf(origin);
    if (from && (from.origin === allowed || from.host === req.headers.host?.toLowerCase())) return;
    throw new ApiError('FORBIDDEN', 'Requests from another site are refused.');
  };
}

/** The URL of an `Origin` header, or null (`null`, garbage). */
function urlOf(header: string): URL | null {
  try {
    const url = new URL(header);
    return url.origin === 'null' ? null : url;
  } catch {
    return null;
  }
}
