import { useEffect, useState } from 'react';
import { authService } from '../account/authService';

export type EmailVerification =
  | { status: 'none' }
  | { status: 'verifying' }
  | { status: 'verified' }
  | { status: 'failed'; error: unknown };

// One request per link even when React runs the effect twice (StrictMode) or the page remounts.
const requests = new Map<string, Promise<void>>();

/**
 * Verifies the account from the e-mailed link `/login?uid=&code=`. A status of VERIFIED or
 * CONFIRMED (already verified) both count as success (spec 001 section 4).
 */
export function useEmailVerification(uid: string | undefined, code: string | undefined): EmailVerification {
  const [state, setState] = useState<EmailVerification>(uid && code ? { status: 'verifying' } : { status: 'none' });

  useEffect(() => {
    if (!uid || !code) {
      setState({ status: 'none' });
      return;
    }
    const key = `${uid}\n${code}`;
    let request = requests.get(key);
    if (!request) {
      request = authService.verifyEmail(uid, code);
      requests.set(key, request);
    }
    let isCurrent = true;
    setState({ status: 'verifying' });
    request.then(
      () => isCurrent && setState({ status: 'verified' }),
      (error: unknown) => isCurrent && setState({ status: 'failed', error }),
    );
    return () => {
      isCurrent = false;
    };
  }, [uid, code]);

  return state;
}
