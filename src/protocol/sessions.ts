/**
 * The signed-in sessions of an account (issue 26, SYNC_SPEC R80): Account > Security lists them
 * and ends one or all others. Password accounts only: airdrop sessions are refused these routes
 * (server/http/passwordlessRoutes.ts does not list them).
 */
import { z } from 'zod';

/**
 * A session's public id: derived from the stored token hash (never the token or the hash
 * itself), 22 base64url characters, so ending a session by id reveals nothing that signs in.
 */
export const SessionId = z.string().regex(/^[A-Za-z0-9_-]{22}$/, 'Expected a session id');

export const SessionInfo = z.object({
  id: SessionId,
  /** "Chromium on Linux", from the User-Agent header last seen (src/domain/describeUserAgent.ts). */
  device: z.string(),
  createdAt: z.number().int(),
  /** Last request made with the session (ms, to within a minute); null when none since it began. */
  lastSeenAt: z.number().int().nullable(),
  expiresAt: z.number().int(),
  /** 'Keep me signed in'. */
  persistent: z.boolean(),
  /** The session making this request. */
  isCurrent: z.boolean(),
});
export type SessionInfo = z.infer<typeof SessionInfo>;

/** GET /account/sessions: live sessions, the current one first, then the most recently seen. */
export const SessionListResponse = z.object({ sessions: z.array(SessionInfo) });
export type SessionListResponse = z.infer<typeof SessionListResponse>;

/** DELETE /account/sessions/{sessionId}: ends one session of the caller (404 when not theirs). */
export const SessionParams = z.strictObject({ sessionId: SessionId });

/** POST /account/sessions/end-others: ends every session of the caller but this one. */
export const EndOtherSessionsBody = z.strictObject({}).optional();

export const EndOtherSessionsResponse = z.object({ ended: z.number().int().min(0) });
export type EndOtherSessionsResponse = z.infer<typeof EndOtherSessionsResponse>;
