import { Alert, Button, Group, Loader, Paper, Stack, Text, Title } from '@mantine/core';
import { useCallback, useEffect, useState } from 'react';
import { formatU } from '../../domain/tokenRules';
import { getApiClient, NetworkError } from '../../platform/apiClient';
import { getCrypto } from '../../platform/cryptoClient';
import { currentTokenSync, useTokenBalance } from '../../sync/tokenSync';
import { type BalanceCheck, verifyTokenBalance } from '../../sync/verifyTokenBalance';
import { IconSend } from '../../ui/icons';
import { PageHeader } from '../../ui/PageHeader';
import { ReferFriendButton } from '../referrals/ReferFriendButton';
import { showSnackbar } from '../../ui/snackbar';
import { useUser } from '../account/useSession';
import { sendTokens } from './sendTokens';
import { SendTokenModal } from './SendTokenModal';
import { CopyableCode } from '../../ui/CopyableCode';
import type { ClaimList } from '../../protocol/claims';
import { claimTokens, fetchClaims } from './claimTokens';
import { ClaimTokenModal } from './ClaimTokenModal';
import { formatDollarValue, PRICE_UNAVAILABLE_TEXT, useTokenPrice } from './useTokenPrice';

type Verification = { kind: 'checking' } | { kind: 'offline' } | { kind: 'failed' } | BalanceCheck;

/**
 * /rewards (spec 002 section 2): the $U balance, live (SYNC_SPEC R109), checked against the
 * ledger's replay on opening and after each send (R110), the user's address for others to send
 * to, and the Send $U modal.
 */
export function RewardsPage() {
  const user = useUser();
  const token = useTokenBalance();
  const [isSendOpen, setSendOpen] = useState(false);
  const [verification, setVerification] = useState<Verification>({ kind: 'checking' });
  const [isClaimOpen, setClaimOpen] = useState(false);
  const [claims, setClaims] = useState<ClaimList | null>(null);
  const usd = useTokenPrice();

  const loadClaims = useCallback(async () => {
    try {
      setClaims(await fetchClaims(getApiClient()));
    } catch {
      // Unknown eligibility: the Claim action stays hidden until the next read.
    }
  }, []);

  useEffect(() => {
    void loadClaims();
  }, [loadClaims]);

  const verify = useCallback(async () => {
    setVerification({ kind: 'checking' });
    try {
      const check = await verifyTokenBalance(getApiClient());
      setVerification(check);
      // The checked read is a read like any other: it may be the newest figure.
      if (check.kind === 'verified') currentTokenSync()?.receive(check.balance, check.headSeq);
    } catch (error) {
      setVerification(error instanceof NetworkError ? { kind: 'offline' } : { kind: 'failed' });
    }
  }, []);

  useEffect(() => {
    void verify();
  }, [verify]);

  const balance = token.balance === null ? null : BigInt(token.balance);
  // The figure shown is the verified one only when nothing newer came in since the check.
  const isVerified = verification.kind === 'verified' && token.balance === verification.balance && token.headSeq === verification.headSeq;

  return (
    <>
      <PageHeader title="Rewards" description="What you earn for storing files permanently, and what you send to others." actions={<ReferFriendButton />} />
      <Stack gap="lg" maw={720}>
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="sm">
            <Title order={2} size="h4">
              $U balance
            </Title>
            {balance === null ? (
              <Group gap="xs">
                <Loader size="sm" />
                <Text c="dimmed">Loading your balance...</Text>
              </Group>
            ) : (
              <Text fz={32} fw={700} lh={1.2} aria-label={`Balance: ${formatU(balance)} $U`} role="status" style={{ wordBreak: 'break-all' }}>
                {formatU(balance)} <Text span fz={20} fw={600} c="dimmed">$U</Text>
              </Text>
            )}
            {balance !== null && usd !== undefined && (
              <Text size="sm" c="dimmed" aria-label="Dollar value">
                {usd === null ? PRICE_UNAVAILABLE_TEXT : `≈ ${formatDollarValue(balance, usd)}`}
              </Text>
            )}
            <VerificationLine verification={verification} isVerified={isVerified} onRetry={() => void verify()} />
            <Text size="sm" c="dimmed">
              Each file you save forever earns $U when it is committed to the network.
            </Text>
            <Group>
              <Button leftSection={<IconSend size={16} />} onClick={() => setSendOpen(true)} disabled={balance === null}>
                Send $U
              </Button>
              {/* R120: only for an account the server says may claim (a paid invoice). */}
              {claims?.eligible && (
                <Button variant="light" onClick={() => setClaimOpen(true)} disabled={balance === null}>
                  Claim $U
                </Button>
              )}
            </Group>
          </Stack>
        </Paper>

        {claims !== null && claims.items.length > 0 && (
          <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
            <Stack gap="xs">
              <Title order={2} size="h4">
                Your claims
              </Title>
              <Stack gap={4} component="ul" style={{ listStyle: 'none', padding: 0, margin: 0 }} aria-label="Your claims">
                {claims.items.map((claim) => (
                  <Text component="li" size="sm" key={claim.id} style={{ wordBreak: 'break-all' }}>
                    {formatU(claim.amount)} $U to {claim.address}:{' '}
                    {claim.status === 'settled' ? `paid out (transaction ${claim.txId})` : 'waiting to be paid out'}
                  </Text>
                ))}
              </Stack>
            </Stack>
          </Paper>
        )}

        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="xs">
            <Title order={2} size="h4">
              Your address
            </Title>
            <Text size="sm" c="dimmed">
              Give this address to someone on this Cairn server to receive $U.
            </Text>
            <CopyableCode value={user.address} copyLabel="Copy your address" codeProps={{ 'aria-label': 'Your address' }} />
          </Stack>
        </Paper>
      </Stack>

      {balance !== null && (
        <SendTokenModal
          opened={isSendOpen}
          onClose={() => setSendOpen(false)}
          balance={balance}
          canSend={token.canSend ?? false}
          ownAddress={user.address}
          onSend={(id, to, amount) => sendTokens(getApiClient(), getCrypto(), { id, from: user.address, fromKey: user.publicSigningKey, to, amount })}
          onAlreadySent={() => {
            void currentTokenSync()?.refresh();
            void verify();
          }}
          onSent={(result) => {
            currentTokenSync()?.receive(result.balance, result.entry.seq);
            showSnackbar(`Tokens sent: ${formatU(result.entry.amount)} $U.`);
            void verify();
          }}
        />
      )}
      {balance !== null && claims?.eligible && (
        <ClaimTokenModal
          opened={isClaimOpen}
          onClose={() => setClaimOpen(false)}
          balance={balance}
          ownAddress={user.address}
          onClaim={(id, to, amount) => claimTokens(getApiClient(), getCrypto(), { id, from: user.address, fromKey: user.publicSigningKey, to, amount })}
          onClaimed={(result) => {
            currentTokenSync()?.receive(result.balance, result.entry.seq);
            showSnackbar(`Claim made: ${formatU(result.claim.amount)} $U to ${result.claim.address}.`);
            void loadClaims();
            void verify();
          }}
        />
      )}
    </>
  );
}

function VerificationLine({ verification, isVerified, onRetry }: { verification: Verification; isVerified: boolean; onRetry: () => void }) {
  if (verification.kind === 'mismatch') {
    return (
      <Alert color="red" role="alert" title="This balance does not match the ledger">
        The server shows {formatU(verification.shown)} $U, but replaying the ledger it serves gives {formatU(verification.replayed)} $U
        {verification.reason === 'missing-entries'
          ? ' (entries are missing from it)'
          : verification.reason === 'figure'
            ? ''
            : ` (an entry does not check out: ${verification.reason})`}
        . Do not rely on the figure shown; tell the server's operator.
      </Alert>
    );
  }
  if (verification.kind === 'checking') {
    return (
      <Text size="sm" c="dimmed">
        Checking against the ledger...
      </Text>
    );
  }
  if (verification.kind === 'offline' || verification.kind === 'failed') {
    return (
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          {verification.kind === 'offline' ? 'Not checked against the ledger: you are offline.' : 'Not checked against the ledger: it could not be read.'}
        </Text>
        <Button variant="subtle" size="compact-sm" onClick={onRetry}>
          Check again
        </Button>
      </Group>
    );
  }
  if (!isVerified) {
    return (
      <Group gap="xs">
        <Text size="sm" c="dimmed">
          Changed since it was checked against the ledger.
        </Text>
        <Button variant="subtle" size="compact-sm" onClick={onRetry}>
          Check again
        </Button>
      </Group>
    );
  }
  return (
    <Text size="sm" c="teal" role="note">
      Verified: the ledger's signed entries add up to this balance.
    </Text>
  );
}
