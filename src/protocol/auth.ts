/**
 * Account, session and two-factor API (spec 001 sections 2, 4, 5, 8; DESIGN.md section 2).
 *
 * Every request schema is strict: unknown keys are rejected. Every path is relative to `/api`.
 * Binary values are base64url without padding; public keys are lower-case hex.
 *
 * Signatures: `signature` fields are Ed25519 signatures by the account's signing key over
 * `canonicalJson(signedPayload)` (see `canonical.ts`), where the payload is named beside each schema.
 */
import { z } from 'zod';
import {
  Address,
  Base64Url,
  Ed25519Signature,
  Email,
  Hex32,
  Id,
  LIMITS,
  OpaqueMessage,
  OtpCode,
} from './primitives';

export const ThemeMode = z.enum(['dark', 'light', 'auto']);
export type ThemeMode = z.infer<typeof ThemeMode>;

export const MfaType = z.enum(['TOTP', 'SMS']);
export type MfaType = z.infer<typeof MfaType>;

/** The signed-in user's own view of their account. Never contains a secret in clear. */
export const AccountUser = z.object({
  id: Id,
  email: z.string(),
  address: Address,
  publicSigningKey: Hex32,
  publicEncryptionKey: Hex32,
  /** The phrase's entropy sealed under the OPAQUE export key (see crypto/backupPhrase.ts). */
  encBackupPhrase: z.string(),
  name: z.string().nullable(),
  hasPhoto: z.boolean(),
  mode: ThemeMode,
  notifications: z.boolean(),
  notifyOnUpload: z.boolean(),
  onboarding: z.boolean(),
  mfaType: MfaType.nullable(),
  /** Authenticator device name (TOTP) or masked phone number (SMS). */
  mfaDevice: z.string().nullable(),
  passwordless: z.boolean(),
  referralId: z.string(),
  createdAt: z.number(),
});
export type AccountUser = z.infer<typeof AccountUser>;

export const SessionResult = z.object({
  status: z.literal('ok'),
  user: AccountUser,
  /** Also set as the HTTP-only cookie; API clients send it as `Authorization: Bearer`. */
  token: z.string(),
  /** Epoch ms, or null for a session that ends with the browser. */
  expiresAt: z.number().nullable(),
});
export type SessionResult = z.infer<typeof SessionResult>;

// --- sign-up -------------------------------------------------------------------------------

/** POST /auth/signup/start. 409 EMAIL_TAKEN when the e-mail is registered. */
export const SignupStartRequest = z.strictObject({ email: Email, registrationRequest: OpaqueMessage });
export const SignupStartResponse = z.object({ registrationResponse: OpaqueMessage });

/**
 * POST /auth/signup/finish. Creates an unverified account and e-mails a verification link
 * `{PUBLIC_URL}/login?uid={base64url(JSON {email})}&code={code}`.
 * signature over { purpose: 'signup', email, address, publicSigningKey, publicEncryptionKey, registrationRecord, encBackupPhrase }
 */
export const SignupFinishRequest = z.strictObject({
  email: Email,
  registrationRecord: OpaqueMessage,
  encBackupPhrase: Base64Url(256),
  address: Address,
  publicSigningKey: Hex32,
  publicEncryptionKey: Hex32,
  referrerId: z.string().max(64).optional(),
  signature: Ed25519Signature,
});

/** POST /auth/verify-email/resend: always answers ok (no account enumeration here). */
export const ResendVerificationRequest = z.strictObject({ email: Email });

/** POST /auth/verify-email. 400 CODE_MISMATCH when the code is not the latest one sent. */
export const VerifyEmailRequest = z.strictObject({ uid: Base64Url(512), code: z.string().min(1).max(128) });
export const VerifyEmailResponse = z.object({ status: z.enum(['VERIFIED', 'CONFIRMED']) });

// --- login ---------------------------------------------------------------------------------

/** POST /auth/login/start. Answers for unknown e-mails too (OPAQUE fake record). */
export const LoginStartRequest = z.strictObject({ email: Email, startLoginRequest: OpaqueMessage });
export const LoginStartResponse = z.object({ loginId: Id, loginResponse: OpaqueMessage });

/**
 * POST /auth/login/finish. 401 INVALID_CREDENTIALS; 403 USER_NOT_CONFIRMED (only after the
 * password was proven). With two-factor on, answers `mfa` and the client goes to /verify.
 */
export const LoginFinishRequest = z.strictObject({
  loginId: Id,
  finishLoginRequest: OpaqueMessage,
  keepSignedIn: z.boolean(),
});
export const MfaRequired = z.object({
  status: z.literal('mfa'),
  mfaToken: z.string(),
  mfaType: MfaType,
  /** Authenticator device name, or masked phone number. */
  device: z.string().nullable(),
});
export const LoginFinishResponse = z.discriminatedUnion('status', [SessionResult, MfaRequired]);
export type LoginFinishResponse = z.infer<typeof LoginFinishResponse>;

/** POST /auth/mfa/verify. 400 WRONG_CODE; 410 EXPIRED after 5 wrong codes or 10 minutes. */
export const MfaVerifyRequest = z.strictObject({ mfaToken: z.string().min(1).max(128), code: OtpCode });
/** POST /auth/mfa/resend (SMS only). */
export const MfaResendRequest = z.strictObject({ mfaToken: z.string().min(1).max(128) });

/** GET /auth/session: 200 { user } or 401. POST /auth/logout: ends the session. */
export const SessionResponse = z.object({ user: AccountUser });

/**
 * POST /auth/reauth/start and /auth/reauth/finish (session required): proves the password again
 * by OPAQUE, for reveal phrase, change password and two-factor setup. The reauth token lasts
 * 10 minutes. 401 INVALID_CREDENTIALS on a wrong password.
 */
export const ReauthStartRequest = z.strictObject({ startLoginRequest: OpaqueMessage });
export const ReauthFinishRequest = z.strictObject({ loginId: Id, finishLoginRequest: OpaqueMessage });
export const ReauthFinishResponse = z.object({ reauthToken: z.string() });
const ReauthToken = z.string().min(1).max(128);

// --- recovery --------------------------------------------------------------------------------

/**
 * POST /auth/recover/start. 404 USER_NOT_FOUND. E-mails the link
 * `{PUBLIC_URL}/recover/backup-phrase?uid={base64url(JSON {email, address})}&code={code}`.
 */
export const RecoverStartRequest = z.strictObject({ email: Email });

/** POST /auth/recover/register: 400 CODE_MISMATCH / 410 EXPIRED for a bad link. */
export const RecoverRegisterRequest = z.strictObject({
  email: Email,
  code: z.string().min(1).max(128),
  registrationRequest: OpaqueMessage,
});
export const RecoverRegisterResponse = z.object({ registrationResponse: OpaqueMessage, challenge: Base64Url(64) });

/**
 * POST /auth/recover/finish: 403 INVALID_SIGNATURE unless signed by the account's own key.
 * signature over { purpose: 'recover', email, challenge, registrationRecord, encBackupPhrase }
 * Ends every other session, answers a new session.
 */
export const RecoverFinishRequest = z.strictObject({
  email: Email,
  code: z.string().min(1).max(128),
  challenge: Base64Url(64),
  registrationRecord: OpaqueMessage,
  encBackupPhrase: Base64Url(256),
  keepSignedIn: z.boolean(),
  signature: Ed25519Signature,
});

// --- account (session required) --------------------------------------------------------------

/** GET /account: { user }. PATCH /account/attributes: { user }. */
export const UpdateAttributesRequest = z
  .strictObject({
    mode: ThemeMode.optional(),
    notifications: z.boolean().optional(),
    notifyOnUpload: z.boolean().optional(),
    onboarding: z.boolean().optional(),
  })
  .refine((v) => Object.keys(v).length > 0, 'Nothing to update');

/**
 * PUT /account/profile: { user }. photo is a `data:image/(png|jpeg|webp);base64,` URL, or null to
 * remove it. GET /profile/photo/{address} serves it (404 when none).
 */
export const UpdateProfileRequest = z
  .strictObject({
    name: z.string().trim().min(1).max(LIMITS.NAME_MAX).optional(),
    photo: z
      .string()
      .max(LIMITS.PHOTO_DATA_URL_MAX)
      .regex(/^data:image\/(png|jpeg|webp);base64,[A-Za-z0-9+/]+=*$/, 'Expected a PNG, JPEG or WebP data URL')
      .nullable()
      .optional(),
  })
  .refine((v) => v.name !== undefined || v.photo !== undefined, 'Nothing to update');

/** POST /account/password/start: 401 INVALID_CREDENTIALS for a bad or expired reauth token. */
export const ChangePasswordStartRequest = z.strictObject({ reauthToken: ReauthToken, registrationRequest: OpaqueMessage });
export const ChangePasswordStartResponse = z.object({ registrationResponse: OpaqueMessage });
/**
 * POST /account/password/finish: { user }.
 * signature over { purpose: 'change-password', userId, registrationRecord, encBackupPhrase }
 */
export const ChangePasswordFinishRequest = z.strictObject({
  reauthToken: ReauthToken,
  registrationRecord: OpaqueMessage,
  encBackupPhrase: Base64Url(256),
  signature: Ed25519Signature,
});

/**
 * A request authorised by the account key itself, not only by the session: signature over
 * { purpose, userId, signedAt }, where signedAt must be within 5 minutes of the server's clock.
 * A stolen session cookie alone cannot make these changes.
 */
export const SignedRequest = z.strictObject({ signedAt: z.number().int().positive(), signature: Ed25519Signature });
export type SignedRequest = z.infer<typeof SignedRequest>;

/**
 * DELETE /account (body required): a SignedRequest with purpose 'delete-account'. Refused with
 * 409 CONFLICT while the account is the only accepted owner of a vault other accepted members
 * use: each such vault is one `details` entry whose path is DELETE_ACCOUNT_OWNED_VAULT and whose
 * message is the vault id (the server knows no private vault's name; the device shows its own).
 */
export const DeleteAccountRequest = SignedRequest;
export const DELETE_ACCOUNT_OWNED_VAULT = 'ownedVaultId';

/** POST /account/mfa/totp/setup: a fresh secret, pending until enabled. */
export const TotpSetupRequest = z.strictObject({ reauthToken: ReauthToken });
export const TotpSetupResponse = z.object({ secret: z.string(), otpauthUrl: z.string() });
/** POST /account/mfa/totp/enable: 400 WRONG_CODE. Answers { user }. */
export const TotpEnableRequest = z.strictObject({ code: OtpCode, device: z.string().trim().min(1).max(60) });

/** POST /account/mfa/sms/setup: sends a code through the SMS port. */
export const SmsSetupRequest = z.strictObject({
  reauthToken: ReauthToken,
  phoneNumber: z.string().regex(/^\+[1-9]\d{7,18}$/, 'Expected an international phone number'),
});
/** POST /account/mfa/sms/enable: 400 WRONG_CODE. Answers { user }. */
export const SmsEnableRequest = z.strictObject({ code: OtpCode });

/** POST /account/mfa/disable: a SignedRequest with purpose 'disable-mfa'. Answers { user }. */
export const MfaDisableRequest = SignedRequest;

// --- configuration and support ---------------------------------------------------------------

/** GET /config: the server's flags, read by the client at start and every 60 s. */
export const ServerConfig = z.object({
  maintenance: z.boolean(),
  readOnly: z.boolean(),
  seriousIssue: z.boolean(),
  /** Announcement link for the sunset banner on the login page, or null (off, the default). */
  sunsetBannerUrl: z.string().nullable(),
  protocolVersion: z.number(),
  /** Issue 20: false when the operator closed sign-ups (SIGNUPS_ALLOWED=false); the sign-up page says so. */
  signupsAllowed: z.boolean().default(true),
  /** Issue 20: an SMS provider is configured; without one the settings do not offer SMS two-factor. */
  smsAvailable: z.boolean().default(false),
  /** Issue 20: permanent vaults go to the embedded test gateway, not the permanent network; the storage page says so. */
  permanentOnEmbeddedGateway: z.boolean().default(false),
  /** Issue 22: organisations' white-label hosts are `{subdomain}.{baseDomain}` (BASE_DOMAIN); null: none. */
  baseDomain: z.string().nullable().default(null),
});
export type ServerConfig = z.infer<typeof ServerConfig>;

/** POST /support: an error report from the error boundary or an inline 'Send an error report.' */
export const SupportRequest = z.strictObject({
  action: z.string().max(200).optional(),
  error: z.string().max(LIMITS.SUPPORT_FIELD_MAX).optional(),
  context: z.string().max(LIMITS.SUPPORT_FIELD_MAX).optional(),
  userAgent: z.string().max(1_000).optional(),
  path: z.string().max(2_000).optional(),
});
export const SupportResponse = z.object({ issueId: z.string() });
