import { useEffect, useState } from 'react';
import { shouldCheckCurrentPassword } from '../../domain/password';
import { authService } from '../account/authService';
import { errorCodeOf, errorMessageOf } from '../signup/errorCode';

/**
 * Waiting time after the last keystroke. Each check is an OPAQUE round trip that the server rate
 * limits like a login, so it must not run per keystroke.
 */
const CHECK_DEBOUNCE_MS = 500;

export type CurrentPasswordCheck =
  | { status: 'idle' | 'checking' | 'valid' | 'invalid' }
  | { status: 'error'; message: string };

/** Live check of the current password: from 6 characters, once typing has paused. */
export function useCurrentPasswordCheck(password: string): CurrentPasswordCheck {
  const [result, setResult] = useState<{ password: string; check: CurrentPasswordCheck } | null>(null);
  const isCheckable = shouldCheckCurrentPassword(password);

  useEffect(() => {
    if (!isCheckable) return;
    let isCurrent = true;
    const timer = window.setTimeout(() => {
      authService
        .reauthenticate(password)
        .then((): CurrentPasswordCheck => ({ status: 'valid' }))
        .catch((error: unknown): CurrentPasswordCheck =>
          errorCodeOf(error) === 'INVALID_CREDENTIALS'
            ? { status: 'invalid' }
            : { status: 'error', message: errorMessageOf(error) },
        )
        .then((check) => {
          if (isCurrent) setResult({ password, check });
        });
    }, CHECK_DEBOUNCE_MS);
    return () => {
      isCurrent = false;
      window.clearTimeout(timer);
    };
  }, [password, isCheckable]);

  if (!isCheckable) return { status: 'idle' };
  // A result only counts for the exact text it was computed for.
  return result?.password === password ? result.check : { status: 'checking' };
}
