import { Alert, Button, Center, Code, CopyButton, Group, Image, Paper, Stack, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import QRCode from 'qrcode';
import { useEffect, useState, type FormEvent } from 'react';
import { authService } from '../account/authService';
import { errorCodeOf, errorMessageOf } from '../signup/errorCode';
import { getTotpDraft, setTotpDraft, type TotpDraft } from './twoFactorDraft';
import { MFA_PASSWORD_MIN } from './twoFactorRules';
import { ConfirmPasswordInput } from './ConfirmPasswordInput';

/** The setup key in groups of 4, easier to type into an authenticator app. */
function groupKey(secret: string): string {
  return secret.replace(/(.{4})/g, '$1 ').trim();
}

/** TOTP step 'setup': confirm the password, then show the QR code and the setup key. */
export function TotpSetupStep() {
  const navigate = useNavigate();
  const [draft, setDraft] = useState<TotpDraft | null>(getTotpDraft);
  const [qrDataUrl, setQrDataUrl] = useState<string | null>(null);
  const [password, setPassword] = useState('');
  const [isLoading, setLoading] = useState(false);
  const [error, setError] = useState<string | null>(null);

  useEffect(() => {
    if (!draft) return;
    let isCurrent = true;
    QRCode.toDataURL(draft.otpauthUrl, { margin: 1, width: 200, errorCorrectionLevel: 'M' })
      .then((url) => isCurrent && setQrDataUrl(url))
      .catch(() => isCurrent && setQrDataUrl(null));
    return () => {
      isCurrent = false;
    };
  }, [draft]);

  async function handleSubmit(event: FormEvent) {
    event.preventDefault();
    if (password.length < MFA_PASSWORD_MIN || isLoading) return;
    setLoading(true);
    setError(null);
    try {
      const next = await authService.startTotpSetup(password);
      setTotpDraft(next);
      setDraft(next);
      setPassword('');
    } catch (err) {
      setError(errorCodeOf(err) === 'INVALID_CREDENTIALS' ? 'Incorrect password' : errorMessageOf(err));
    } finally {
      setLoading(false);
    }
  }

  if (!draft) {
    return (
      <form onSubmit={handleSubmit} noValidate>
        <Stack gap="md">
          <Text size="sm">Confirm your password to set up an authenticator app.</Text>
          <ConfirmPasswordInput
            value={password}
            onChange={(next) => {
              setPassword(next);
              setError(null);
            }}
            error={error}
          />
          <Button type="submit" disabled={password.length < MFA_PASSWORD_MIN} loading={isLoading}>
            Continue
          </Button>
        </Stack>
      </form>
    );
  }

  return (
    <Stack gap="md">
      <Text size="sm">
        Scan this QR code with your authenticator app, or enter the setup key by hand.
      </Text>
      <Center>
        <Paper withBorder p="xs" bg="white" radius="md">
          {qrDataUrl ? (
            <Image src={qrDataUrl} alt="QR code for your authenticator app" w={200} h={200} />
          ) : (
            <Center w={200} h={200}>
              <Text size="sm" c="dimmed">
                Use the setup key below.
              </Text>
            </Center>
          )}
        </Paper>
      </Center>
      <Stack gap={4}>
        <Text size="sm" fw={500} id="totp-setup-key-label">
          Setup key
        </Text>
        <Group gap="xs" wrap="nowrap" align="center">
          <Code
            block
            style={{ flex: 1, minWidth: 0, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}
            aria-labelledby="totp-setup-key-label"
          >
            {groupKey(draft.secret)}
          </Code>
          <CopyButton value={draft.secret} timeout={1_500}>
            {({ copied, copy }) => (
              <Button variant="default" size="xs" onClick={copy}>
                {copied ? 'Copied!' : 'Copy'}
              </Button>
            )}
          </CopyButton>
        </Group>
      </Stack>
      <Alert color="gray" variant="light">
        Keep this key private: anyone who has it can generate your codes.
      </Alert>
      <Button
        onClick={() => void navigate({ to: '/account/security/two-factor-authentication/totp/verify' })}
      >
        Next
      </Button>
    </Stack>
  );
}
