/**
 * One error shape for every route and WebSocket message.
 *
 * The server answers every failure as `{ error: { code, message, details? } }` with the HTTP status
 * that `ERROR_STATUS[code]` names; the client maps `code` to the spec's texts. Never add a code
 * without its status.
 */
export const ERROR_STATUS = {
  BAD_REQUEST: 400,
  VALIDATION_FAILED: 400,
  CODE_MISMATCH: 400,
  WRONG_CODE: 400,
  UNAUTHENTICATED: 401,
  INVALID_CREDENTIALS: 401,
  FORBIDDEN: 403,
  USER_NOT_CONFIRMED: 403,
  /** The operator disabled the account (issue 20, `npm run admin -- disable`): no login, no session. */
  ACCOUNT_DISABLED: 403,
  /** The operator closed sign-ups (SIGNUPS_ALLOWED=false) or limited them to some e-mail domains (SIGNUP_EMAIL_DOMAINS). */
  SIGNUPS_CLOSED: 403,
  /** SMS two-factor asked for on a server with no SMS provider configured. */
  SMS_UNAVAILABLE: 422,
  /** The SMS provider did not take a two-factor code (down, timed out, or refused the number); nothing changed. */
  SMS_NOT_SENT: 502,
  INVALID_SIGNATURE: 403,
  READ_ONLY: 403,
  NOT_FOUND: 404,
  USER_NOT_FOUND: 404,
  CONFLICT: 409,
  EMAIL_TAKEN: 409,
  /** Sign-up with a recovery phrase whose keys already have an account on this server: sign in or recover. */
  PHRASE_TAKEN: 409,
  EXPIRED: 410,
  PAYLOAD_TOO_LARGE: 413,
  UNSUPPORTED_MEDIA_TYPE: 415,
  UNPROCESSABLE: 422,
  /** An upload larger than the storage left (spec 000 section 8). */
  NOT_ENOUGH_STORAGE: 422,
  /** An operation that does not fit the vault's current state (e.g. a move into a deleted folder). */
  INVALID_OPERATION: 422,
  /** Additions to an archived vault. */
  VAULT_ARCHIVED: 409,
  /** Content sealed under a vault key older than the newest (a rotation happened): reseal and retry. */
  STALE_VAULT_KEY: 409,
  /** A member left a private vault and the key has not been rotated yet: retry after the rotation. */
  KEY_ROTATION_PENDING: 409,
  /** The invitee already has a live membership ('This person has already been invited.'). */
  ALREADY_MEMBER: 409,
  /** The configured member limit (spec 000 section 8: 'You've hit the member limit'). */
  MEMBER_LIMIT: 403,
  /** The account owns as many vaults as its plan allows (spec 000 section 8: 'You've hit the vault limit'; SYNC_SPEC R101). */
  VAULT_LIMIT: 403,
  /** A note has as many unsaved draft updates on its version as the server keeps: save it (SYNC_SPEC R63). */
  DRAFT_LIMIT: 409,
  /** A $U transfer of more than the sender's balance ('Amount exceeds total balance.', spec 002 section 5; SYNC_SPEC R108). */
  AMOUNT_EXCEEDS_BALANCE: 422,
  /** Sending $U while the balance is under 0.0001, or on the free plan with 100,000,000 bytes of storage or less (spec 002 section 5; R108). */
  TOKEN_SEND_NOT_ALLOWED: 403,
  /** Claiming $U without a paid invoice (SYNC_SPEC R120). */
  CLAIM_NOT_ALLOWED: 403,
  /** An action a plan file gates (metadata.app_features) that the caller's plan does not list (SYNC_SPEC R122). */
  FEATURE_NOT_IN_PLAN: 403,
  /** A discount code the operator's plans file does not have, or not for this plan ('Incorrect discount code', spec 002 section 8; SYNC_SPEC R113). */
  COUPON_INVALID: 422,
  /** A storage top-up past the plan's top-up limit, or on a plan with none ('You've hit the top up limit'; SYNC_SPEC R118). */
  TOPUP_LIMIT: 403,
  /** An organisation action by an account with no organisation (spec 001 section 8: shown as the organisation invite error). */
  ORG_DOESNT_EXISTS: 404,
  RATE_LIMITED: 429,
  INTERNAL: 500,
  MAINTENANCE: 503,
} as const;

export type ErrorCode = keyof typeof ERROR_STATUS;

export interface ApiErrorBody {
  error: {
    code: ErrorCode;
    message: string;
    /** Field-level problems for VALIDATION_FAILED: path joined by '.', and a message. */
    details?: { path: string; message: string }[];
  };
}

/** An error raised by server code or rebuilt by the client from an `ApiErrorBody`. */
export class ApiError extends Error {
  readonly code: ErrorCode;
  readonly status: number;
  readonly details?: ApiErrorBody['error']['details'];

  constructor(code: ErrorCode, message?: string, details?: ApiErrorBody['error']['details']) {
    super(message ?? code);
    this.name = 'ApiError';
    this.code = code;
    this.status = ERROR_STATUS[code];
    this.details = details;
  }

  toBody(): ApiErrorBody {
    return {
      error: { code: this.code, message: this.message, ...(this.details ? { details: this.details } : {}) },
    };
  }
}

export function isErrorCode(value: unknown): value is ErrorCode {
  return typeof value === 'string' && Object.prototype.hasOwnProperty.call(ERROR_STATUS, value);
}

/** Reads an unknown JSON body as an ApiErrorBody, or returns undefined. */
export function parseErrorBody(body: unknown): ApiErrorBody['error'] | undefined {
  if (typeof body !== 'object' || body === null || !('error' in body)) return undefined;
  const error = (body as { error: unknown }).error;
  if (typeof error !== 'object' || error === null) return undefined;
  const { code, message } = error as { code?: unknown; message?: unknown };
  if (!isErrorCode(code) || typeof message !== 'string') return undefined;
  return error as ApiErrorBody['error'];
}
