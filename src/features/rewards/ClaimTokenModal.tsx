import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { checkSendForm, formatExactU, formatU } from '../../domain/tokenRules';
import { NetworkError } from '../../platform/apiClient';
import type { ClaimResult } from '../../protocol/claims';
import { claimRefusalOf } from './claimTokens';
import type { SendRefusal } from './sendTokens';

export interface ClaimTokenModalProps {
  opened: boolean;
  onClose: () => void;
  /** Millionths of a U. */
  balance: bigint;
  ownAddress: string;
  onClaim: (id: string, to: string, amount: bigint) => Promise<ClaimResult>;
  onClaimed: (result: ClaimResult) => void;
}

/**
 * The Claim $U modal (SYNC_SPEC R120): withdraws $U to an outside Arweave wallet, with the same
 * checks as Send (a 43-character address with the spec's text, an amount not above the balance).
 * A refusal is shown, never only logged (the original's defect).
 */
export function ClaimTokenModal({ opened, onClose, balance, ownAddress, onClaim, onClaimed }: ClaimTokenModalProps) {
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [refusal, setRefusal] = useState<SendRefusal | null>(null);
  const [isBusy, setBusy] = useState(false);
  // A claim whose answer never came: claiming the same again reuses its id, so it is recorded once.
  const unanswered = useRef<{ id: string; to: string; amount: bigint } | null>(null);

  useEffect(() => {
    if (!opened) return;
    setAddress('');
    setAmount('');
    setRefusal(null);
  }, [opened]);

  const check = checkSendForm({ address, amount }, { balance, canSend: true, ownAddress });
  const empty = balance === 0n;
  const canSubmit = !empty && address.trim() !== '' && check.addressError === null && check.amount !== null;
  const addressError = check.addressError ?? (refusal?.field === 'address' ? refusal.text : null);
  const amountError = check.amountError ?? (refusal?.field === 'amount' ? refusal.text : null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!canSubmit || check.amount === null || isBusy) return;
    setBusy(true);
    setRefusal(null);
    const to = address.trim();
    const previous = unanswered.current;
    const attempt = previous !== null && previous.to === to && previous.amount === check.amount ? previous : { id: crypto.randomUUID(), to, amount: check.amount };
    try {
      const result = await onClaim(attempt.id, to, check.amount);
      unanswered.current = null;
      onClaimed(result);
      onClose();
    } catch (error) {
      unanswered.current = error instanceof NetworkError ? attempt : null;
      setRefusal(claimRefusalOf(error));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Claim $U" centered>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Text size="sm">
            Available balance: <strong>{formatU(balance)} $U</strong>
          </Text>
          <Text size="sm" c="dimmed">
            The amount leaves your balance now; the operator pays it out to your Arweave wallet.
          </Text>
          {empty && (
            <Alert color="yellow" role="status">
              You have no $U to claim.
            </Alert>
          )}
          <TextInput
            label="Arweave wallet address"
            description="The 43-character address of your wallet outside Cairn."
            placeholder="Wallet address"
            value={address}
            onChange={(e) => {
              setAddress(e.currentTarget.value);
              if (refusal?.field !== 'amount') setRefusal(null);
            }}
            error={addressError}
            autoComplete="off"
            spellCheck={false}
            data-autofocus
            styles={{ input: { fontFamily: 'var(--mantine-font-family-monospace)' } }}
          />
          <TextInput
            label="Amount"
            placeholder="0.0000"
            inputMode="decimal"
            value={amount}
            onChange={(e) => {
              setAmount(e.currentTarget.value);
              if (refusal?.field !== 'address') setRefusal(null);
            }}
            error={amountError}
            autoComplete="off"
            rightSectionWidth={64}
            rightSection={
              <Anchor component="button" type="button" size="sm" fw={600} onClick={() => setAmount(formatExactU(balance))} title="Fill in the full balance">
                MAX
              </Anchor>
            }
          />
          {refusal?.field === 'form' && (
            <Alert color="red" role="alert">
              {refusal.text}
            </Alert>
          )}
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Cancel
            </Button>
            <Button type="submit" disabled={!canSubmit} loading={isBusy}>
              Claim
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
