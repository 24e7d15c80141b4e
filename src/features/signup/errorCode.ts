import { ApiError } from '../../protocol/errors';

/**
 * The code of a rejection from the account service: an `ApiError`'s code, or the message of a
 * plain Error (the service raises client-side conditions as `Error('PHRASE_MISMATCH')` etc.).
 */
export function errorCodeOf(error: unknown): string | undefined {
  if (error instanceof ApiError) return error.code;
  if (error instanceof Error) return error.message;
  return undefined;
}

/** A readable message for errors the spec shows as "their message". */
export function errorMessageOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return 'Something went wrong.';
}
