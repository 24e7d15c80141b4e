import type { FastifyReply, FastifyRequest } from 'fastify';
import { PERSISTENT_SESSION_MS } from '../services/SessionService';

export const SESSION_COOKIE = 'cairn_session';

/**
 * Sets the HTTP-only session cookie. SameSite=Strict keeps it off cross-site requests (the CSRF
 * defence for cookie-authenticated calls). Without 'Keep me signed in' it has no Max-Age, so the
 * browser drops it when it closes.
 */
export function setSessionCookie(reply: FastifyReply, token: string, persistent: boolean, secure: boolean): void {
  reply.setCookie(SESSION_COOKIE, token, {
    httpOnly: true,
    sameSite: 'strict',
    path: '/',
    secure,
    ...(persistent ? { maxAge: Math.floor(PERSISTENT_SESSION_MS / 1000) } : {}),
  });
}

export function clearSessionCookie(reply: FastifyReply): void {
  reply.clearCookie(SESSION_COOKIE, { path: '/', httpOnly: true, sameSite: 'strict' });
}

/** The session token of `Authorization: Bearer <token>`, else of the cookie, else null. */
export function readSessionToken(req: FastifyRequest): string | null {
  const header = req.headers.authorization;
  if (header) {
    const match = /^Bearer\s+([A-Za-z0-9_-]{1,128})$/.exec(header.trim());
    return match?.[1] ?? null;
  }
  const cookie = req.cookies[SESSION_COOKIE];
  return cookie && /^[A-Za-z0-9_-]{1,128}$/.test(cookie) ? cookie : null;
}
