import { Alert, Anchor, Button, Group, Modal, Stack, Text, TextInput } from '@mantine/core';
import { type FormEvent, useEffect, useState } from 'react';
import { checkSendForm, formatExactU, formatU } from '../../domain/tokenRules';
import type { TransferResult } from '../../protocol/ledger';
import { sendRefusalOf, type SendRefusal } from './sendTokens';

export interface SendTokenModalProps {
  opened: boolean;
  onClose: () => void;
  /** Millionths of a U. */
  balance: bigint;
  canSend: boolean;
  ownAddress: string;
  /** Signs and posts the transfer (sendTokens); throws what the API client throws. */
  onSend: (to: string, amount: bigint) => Promise<TransferResult>;
  /** After an accepted transfer, with the server's answer. */
  onSent: (result: TransferResult) => void;
}

/**
 * The Send $U modal (spec 002 section 5, spec 000 section 5): a 43-character recipient address,
 * an amount in U with MAX, the spec's texts for a bad address and an amount over the balance;
 * Send disabled under 0.0001 U or when the plan does not allow sending. Refusals from the server
 * land on the field they concern; what was typed stays.
 */
export function SendTokenModal({ opened, onClose, balance, canSend, ownAddress, onSend, onSent }: SendTokenModalProps) {
  const [address, setAddress] = useState('');
  const [amount, setAmount] = useState('');
  const [refusal, setRefusal] = useState<SendRefusal | null>(null);
  const [isBusy, setBusy] = useState(false);

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
    try {
      const result = await onSend(address.trim(), check.amount);
      onSent(result);
      onClose();
    } catch (error) {
      setRefusal(sendRefusalOf(error));
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
