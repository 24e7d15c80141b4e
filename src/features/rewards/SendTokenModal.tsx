import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useRef, useState } from 'react';
import { checkSendForm, formatExactU, formatU } from '../../domain/tokenRules';
import type { TransferResult } from '../../protocol/ledger';
import { ApiError } from '../../protocol/errors';
import { NetworkError } from '../../platform/apiClient';
import { sendRefusalOf, type SendRefusal } from './sendTokens';

export interface SendTokenModalProps {
  opened: boolean;
  onClose: () => void;
  /** Millionths of a U. */
  balance: bigint;
  canSend: boolean;
  ownAddress: string;
  /** Signs and posts the transfer with this id (sendTokens); throws what the API client throws. */
  onSend: (id: string, to: string, amount: bigint) => Promise<TransferResult>;
  /** After an accepted transfer, with the server's answer. */
  onSent: (result: TransferResult) => void;
  /** A retry found its transfer already recorded (its first answer was lost): read the balance again. */
  onAlreadySent: () => void;
}

/**
 * The Send $U modal (spec 002 section 5, spec 000 section 5): a 43-character recipient address,
 * an amount in U with MAX, the spec's texts for a bad address and an amount over the balance;
 * Send disabled under 0.0001 U or when the plan does not allow sending. Refusals from the server
 * land on the field they concern; what was typed stays.
 */
export function SendTokenModal({ opened, onClose, balance, canSend, ownAddress, onSend, onSent, onAlreadySent }: SendTokenModalProps) {
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [refusal, setRefusal] = useState<SendRefusal | null>(null);
  const [isBusy, setBusy] = useState(false);
  // A send whose answer never came (offline, timeout): sending the same again reuses its id, so
  // the ledger records it once (R108 answers 409 for an id it holds).
  const unanswered = useRef<{ id: string; to: string; amount: bigint } | null>(null);

  useEffect(() => {
    if (!opened) return;
    setAddress('');
    setAmount('');
    setRefusal(null);
  }, [opened]);

  const check = checkSendForm({ address, amount }, { balance, canSend, ownAddress });
  const addressError = check.addressError ?? (refusal?.field === 'address' ? refusal.text : null);
  const amountError = check.amountError ?? (refusal?.field === 'amount' ? refusal.text : null);

  async function submit(event: FormEvent) {
    event.preventDefault();
    if (!check.canSubmit || check.amount === null || isBusy) return;
    setBusy(true);
    setRefusal(null);
    const to = address.trim();
    const previous = unanswered.current;
    const isRetry = previous !== null && previous.to === to && previous.amount === check.amount;
    const attempt = isRetry ? previous : { id: crypto.randomUUID(), to, amount: check.amount };
    try {
      const result = await onSend(attempt.id, to, check.amount);
      unanswered.current = null;
      onSent(result);
      onClose();
    } catch (error) {
      unanswered.current = error instanceof NetworkError ? attempt : null;
      if (isRetry && error instanceof ApiError && error.code === 'CONFLICT') onAlreadySent();
      setRefusal(sendRefusalOf(error, isRetry));
    } finally {
      setBusy(false);
    }
  }

  return (
    <Modal opened={opened} onClose={onClose} title="Send $U" centered>
      <form onSubmit={(e) => void submit(e)} noValidate>
        <Stack>
          <Text size="sm">
            Available balance: <strong>{formatU(balance)} $U</strong>
          </Text>
          {check.blocked && (
            <Alert color="yellow" role="status">
              {check.blocked}
            </Alert>
          )}
          <TextInput
            label="Recipient address"
            description="The 43-character address of a Cairn account."
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
            <Button type="submit" disabled={!check.canSubmit} loading={isBusy}>
              Send
            </Button>
          </Group>
        </Stack>
      </form>
    </Modal>
  );
}
