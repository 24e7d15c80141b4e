import { SmsNotSentError } from './SmsPort';

/** A provider that has not answered in this long is treated as down (the user is waiting on the page). */
export const SMS_TIMEOUT_MS = 10_000;
/** Enough of an error answer to show the provider's own explanation in the log; no more is read. */
const MAX_ERROR_BODY_CHARS = 2_000;

/**
 * POSTs to an SMS provider with a timeout. Resolves with the answer when it is 2xx; otherwise
 * (an error status, a redirect, no answer, a timeout) rejects with SmsNotSentError, whose message
 * is built by `describe` from the answer and never from the request (which holds the credential).
 * Redirects are not followed: a redirected request would carry the credential to another place.
 */
export async function postToProvider(
  provider: string,
  url: string,
  init: { headers: Record<string, string>; body: string; secret: string | null },
  timeoutMs: number,
  describe: (status: number, body: string) => SmsNotSentError,
): Promise<Response> {
  let response: Response;
  try {
    response = await fetch(url, { method: 'POST', headers: init.headers, body: init.body, redirect: 'manual', signal: AbortSignal.timeout(timeoutMs) });
  } catch (error) {
    const timedOut = error instanceof DOMException && (error.name === 'TimeoutError' || error.name === 'AbortError');
    const reason = timedOut ? `no answer within ${timeoutMs} ms` : networkReason(error);
    throw new SmsNotSentError(provider, `${provider} could not be reached: ${reason}`, { failure: 'unavailable' }, { cause: error });
  }
  if (response.status >= 200 && response.status < 300) return response;
  let body = (await response.text().catch(() => '')).slice(0, MAX_ERROR_BODY_CHARS);
  // A gateway that echoes the request back must not put the credential into the log.
  if (init.secret) body = body.split(init.secret).join('***');
  throw describe(response.status, body);
}

/** fetch's "fetch failed" hides the reason (refused, reset, DNS) in its cause. */
function networkReason(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? error.cause.message : null;
  return cause ? `${error.message} (${cause})` : error.message;
}
