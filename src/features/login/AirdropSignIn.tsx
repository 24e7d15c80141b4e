/**
 * /login?wallet=: the passwordless sign-in of an airdrop link (spec 001 sections 2 and 4). The
 * wallet is derived and proven in the crypto worker; the page only shows progress. Someone
 * already signed in is asked first, since the link's session replaces theirs.
 */
import { Alert, Button, Group, Loader, Stack, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';
import { ApiError } from '../../protocol/errors';
import { authService } from '../account/authService';
import { useSession } from '../account/useSession';

export interface AirdropSignInProps {
  /** The link's `wallet` parameter (already removed from the address bar). */
  wallet: string;
  /** Signed in with the link's wallet: the login page then goes on to the saved origin. */
  onSignedIn: () => void;
  /** The sign-in failed, or the user kept their own session. */
  onFailed: (error: unknown | null) => void;
}

export function AirdropSignIn({ wallet, onSignedIn, onFailed }: AirdropSignInProps) {
  const session = useSession();
  // Decided once, on arrival: the link's own sign-in must not look like someone already here.
  const [phase, setPhase] = useState<'confirm' | 'signingIn'>(() => (session.status === 'signedIn' ? 'confirm' : 'signingIn'));
  const started = useRef(false);

  useEffect(() => {
    // Once per mount, though StrictMode runs effects twice: the challenge is single-use.
    if (phase !== 'signingIn' || started.current) return;
    started.current = true;
    void (async () => {
      try {
        if (authService.getSnapshot().status === 'signedIn') await authService.logout();
        await authService.loginWithWallet(wallet);
        onSignedIn();
      } catch (error) {
        // A wallet the server does not know is a wrong or mangled link, not a wrong password.
        onFailed(error instanceof ApiError && error.code === 'INVALID_CREDENTIALS' ? new Error('INVALID_LINK') : error);
      }
    })();
  }, [phase, wallet, onSignedIn, onFailed]);

  if (phase === 'confirm') {
    return (
      <Stack gap="md">
        <Alert color="yellow" variant="light">
          You are signed in{session.user && !session.user.passwordless ? ` as ${session.user.email}` : ''}. Opening this link signs you out
          first.
        </Alert>
        <Group grow>
          <Button variant="default" onClick={() => onFailed(null)}>
            Stay signed in
          </Button>
          <Button onClick={() => setPhase('signingIn')}>Open link</Button>
        </Group>
      </Stack>
    );
  }
  return (
    <Group gap="xs" c="dimmed" role="status" justify="center" py="lg">
      <Loader size="sm" />
      <Text size="sm">Opening your link…</Text>
    </Group>
  );
}
