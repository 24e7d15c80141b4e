import { notifications } from '@mantine/notifications';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { errorCodeOf, errorMessageOf } from '../signup/errorCode';

/**
 * The last step of either two-factor setup: sends the code, and on success forgets the setup
 * draft, confirms and returns to the two-factor page; a wrong code gets the spec's text.
 */
export function useEnableTwoFactor(clearDraft: () => void) {
  const navigate = useNavigate();
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function enable(send: () => Promise<unknown>): Promise<void> {
    setLoading(true);
    setError(null);
    try {
      // The service updates the session's user.
      await send();
      clearDraft();
      notifications.show({ message: 'Two-factor authentication is on.', color: 'teal' });
      await navigate({ to: '/account/security/two-factor-authentication' });
    } catch (err) {
      setError(errorCodeOf(err) === 'WRONG_CODE' ? 'Wrong code. Please check and try again.' : errorMessageOf(err));
      setLoading(false);
    }
  }

  return { isLoading, error, setError, enable };
}
