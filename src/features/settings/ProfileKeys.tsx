import { Alert, Button, Paper, Stack, Text, Title } from '@mantine/core';
import { useState } from 'react';
import type { AccountUser } from '../../protocol/auth';
import { authService } from '../account/authService';
import { errorMessageOf } from '../signup/errorCode';
import { CopyableCode } from '../../ui/CopyableCode';

function KeyRow({ label, value }: { label: string; value: string }) {
  return (
    <Stack gap={4}>
      <Text size="sm" fw={500}>
        {label}
      </Text>
      <CopyableCode value={value} copyLabel={`Copy ${label.toLowerCase()}`} />
    </Stack>
  );
}

/** The public keys, and the private keys behind 'Reveal' (spec 001 section 2: Profile). */
export function ProfileKeys({ user }: { user: AccountUser }) {
  const [privateKeys, setPrivateKeys] = useState<{ signingKey: string; encryptionKey: string } | null>(null);
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  async function handleReveal() {
    setLoading(true);
    setError(null);
    try {
      setPrivateKeys(await authService.exportPrivateKeys());
    } catch (err) {
      setError(errorMessageOf(err));
    } finally {
      setLoading(false);
    }
  }

  return (
    <>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <Title order={2} size="h4">
            Public keys
          </Title>
          <Text size="sm" c="dimmed">
            Others use these to share vaults with you and to check that your actions are really yours.
          </Text>
          <KeyRow label="Address" value={user.address} />
          <KeyRow label="Public signing key" value={user.publicSigningKey} />
          <KeyRow label="Public encryption key" value={user.publicEncryptionKey} />
        </Stack>
      </Paper>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="md">
          <Title order={2} size="h4">
            Private keys
          </Title>
          <Alert color="red" variant="light" title="Never share your private keys">
            Anyone who has them can read your vaults and act as you. Cairn will never ask for them.
          </Alert>
          {privateKeys ? (
            <>
              <KeyRow label="Private signing key" value={privateKeys.signingKey} />
              <KeyRow label="Private encryption key" value={privateKeys.encryptionKey} />
              <Button variant="default" onClick={() => setPrivateKeys(null)}>
                Hide
              </Button>
            </>
          ) : (
            <Button variant="default" color="red" onClick={handleReveal} loading={isLoading}>
              Reveal
            </Button>
          )}
          {error && (
            <Text c="red" size="sm" role="alert">
              {error}
            </Text>
          )}
        </Stack>
      </Paper>
    </>
  );
}
