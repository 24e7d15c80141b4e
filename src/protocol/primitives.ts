import { z } from 'zod';

/** Limits shared by client forms and server schemas (spec 001 section 9). */
export const LIMITS = {
  EMAIL_MAX: 254,
  NAME_MAX: 100,
  /** Photos are cropped and re-encoded on the device; the data URL stays under this size. */
  PHOTO_DATA_URL_MAX: 1_500_000,
  OPAQUE_MESSAGE_MAX: 2_048,
  BLOB_MAX: 4_096,
  OTP_LENGTH: 6,
  PHONE_MIN: 9,
  PHONE_MAX: 20,
  SUPPORT_FIELD_MAX: 10_000,
} as const;

/** The simple e-mail pattern of the spec's forms: something@something.tld, no spaces. */
export const EMAIL_PATTERN = /^[^\s@]+@[^\s@]+\.[^\s@]+$/;

export const Email = z
  .string()
  .trim()
  .toLowerCase()
  .max(LIMITS.EMAIL_MAX)
  .regex(EMAIL_PATTERN, 'Invalid e-mail address');

/** RFC 4648 base64url without padding. */
export const Base64Url = (max: number = LIMITS.BLOB_MAX) =>
  z.string().min(1).max(max).regex(/^[A-Za-z0-9_-]+$/, 'Expected base64url');

export const Hex32 = z.string().regex(/^[0-9a-f]{64}$/, 'Expected 32 bytes as lower-case hex');

/** base64url(SHA-256(Ed25519 public key)): 43 characters (DESIGN.md section 2). */
export const Address = z.string().regex(/^[A-Za-z0-9_-]{43}$/, 'Expected a 43-character address');

export const Ed25519Signature = z.string().regex(/^[A-Za-z0-9_-]{86}$/, 'Expected a base64url Ed25519 signature');

export const OtpCode = z.string().regex(/^\d{6}$/, 'Expected 6 digits');

export const OpaqueMessage = Base64Url(LIMITS.OPAQUE_MESSAGE_MAX);

export const Id = z.string().min(1).max(64).regex(/^[A-Za-z0-9_-]+$/);

export const Ok = z.strictObject({ ok: z.literal(true) });
export type Ok = z.infer<typeof Ok>;
