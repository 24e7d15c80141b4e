/** How the upload queue reads a failed request: whether a retry can fix it. */

/** An HTTP status a retry can fix: server errors, rate limits, an expired session, a timeout. */
export function isRetryableStatus(status: number): boolean {
  return status >= 500 || status === 429 || status === 401 || status === 408;
}

/** The HTTP status a transfer worker's failed PUT reports ('UPLOAD_FAILED: 409'), or null (no answer at all). */
export function statusOfTransferError(error: unknown): number | null {
  const match = error instanceof Error ? /^UPLOAD_FAILED: (\d{3})/.exec(error.message) : null;
  return match ? Number(match[1]) : null;
}
