/**
 * Buying storage by the GB (issue 21; SYNC_SPEC R118): the top-up form opened from a storage card
 * and from the NOT_ENOUGH_STORAGE message's 'top up' link. Every figure comes from the server
 * (POST /api/billing/topup-quote); buying issues an open invoice (POST /api/billing/topups) and the
 * storage is added when the server's operator marks it paid. When the account can buy no more
 * (no top-ups on its plan, or its limit used up), the server answers TOPUP_LIMIT and the top-up
 * limit prompt opens instead of the form.
 */
import { Alert, Button, Checkbox, Divider, Group, Loader, Modal, NumberInput, Select, SegmentedControl, Stack, Table, Text, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { useEffect, useState } from 'react';
import { CURRENCY_SYMBOLS, DEFAULT_CURRENCY, formatPrice } from '../../domain/planPricing';
import { BILLING_TEXTS, type BillingDetails, Invoice, TOPUP_MAX_GB, TopUpQuote, type TopUpStorage } from '../../protocol/billing';
import { ApiError } from '../../protocol/errors';
import { PLAN_CURRENCIES, type PlanCurrency } from '../../protocol/plans';
import { getApiClient } from '../../platform/apiClient';
import { BillingDetailsSection } from '../billing/CheckoutForm';
import { UpgradeTierModal } from '../billing/UpgradeTierModal';

/** Spec 002 section 8: 'top-up success or failure snackbars' (the texts are ours; the spec gives none). */
export const TOPUP_TEXTS = {
  issued: (number: string) => `Top-up invoice ${number} issued`,
  failed: 'Your top-up failed',
} as const;

type QuoteState = { status: 'loading' } | { status: 'ready'; quote: TopUpQuote } | { status: 'error'; message: string };

function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

interface TopUpModalProps {
  opened: boolean;
  onClose: () => void;
  /** The kind chosen when the form opens (the card it was opened from). */
  storage?: TopUpStorage;
}

export function TopUpModal({ opened, onClose, storage: initialStorage = 'cloud' }: TopUpModalProps) {
  const [storage, setStorage] = useState<TopUpStorage>(initialStorage);
  const [gb, setGb] = useState<number>(1);
  const [currency, setCurrency] = useState<PlanCurrency>(DEFAULT_CURRENCY);
  const [quote, setQuote] = useState<QuoteState>({ status: 'loading' });
  const [details, setDetails] = useState<BillingDetails | null | undefined>(undefined);
  const [terms, setTerms] = useState(false);
  const [termsTouched, setTermsTouched] = useState(false);
  const [buying, setBuying] = useState(false);
  const [issued, setIssued] = useState<Invoice | null>(null);
  const [limitHit, setLimitHit] = useState(false);

  // A fresh form each time it opens, on the kind of the card it was opened from.
  useEffect(() => {
    if (!opened) return;
    setStorage(initialStorage);
    setGb(1);
    setTerms(false);
    setTermsTouched(false);
    setIssued(null);
    setLimitHit(false);
  }, [opened, initialStorage]);

  useEffect(() => {
    if (!opened || !Number.isInteger(gb) || gb < 1) return;
    let isCurrent = true;
    setQuote({ status: 'loading' });
    getApiClient()
      .post('/billing/topup-quote', { storage, gb, currency }, TopUpQuote)
      .then((answer) => {
        if (isCurrent) setQuote({ status: 'ready', quote: answer });
      })
      .catch((error: unknown) => {
        if (!isCurrent) return;
        if (error instanceof ApiError && error.code === 'TOPUP_LIMIT') setLimitHit(true);
        else setQuote({ status: 'error', message: messageOf(error, 'The price could not be loaded. Check your connection and try again.') });
      });
    return () => {
      isCurrent = false;
    };
  }, [opened, storage, gb, currency]);

  const buy = async () => {
    setTermsTouched(true);
    if (!terms || !details) return;
    setBuying(true);
    try {
      const invoice = await getApiClient().post('/billing/topups', { storage, gb, currency, acceptTerms: true }, Invoice);
      setIssued(invoice);
      notifications.show({ color: 'green', message: TOPUP_TEXTS.issued(invoice.number) });
    } catch (error) {
      if (error instanceof ApiError && error.code === 'TOPUP_LIMIT') setLimitHit(true);
      else notifications.show({ color: 'red', message: `${TOPUP_TEXTS.failed}: ${messageOf(error, 'the server could not be reached.')}`, autoClose: 3000 });
    } finally {
      setBuying(false);
    }
  };

  const left = quote.status === 'ready' ? Math.max(0, quote.quote.limitGb - quote.quote.boughtGb) : null;
  const kindName = storage === 'permanent' ? 'permanent' : 'cloud';

  return (
    <>
      <UpgradeTierModal
        tier="topUp"
        opened={opened && limitHit}
        onClose={() => {
          setLimitHit(false);
          onClose();
        }}
      />
      <Modal opened={opened && !limitHit} onClose={onClose} title="Top up storage" centered size="lg">
        <Stack gap="md">
          <SegmentedControl
            aria-label="Storage"
            value={storage}
            onChange={(value) => setStorage(value as TopUpStorage)}
            data={[
              { value: 'permanent', label: 'Permanent storage' },
              { value: 'cloud', label: 'Cloud storage' },
            ]}
            disabled={issued !== null}
          />
          <Group grow align="flex-start">
            <NumberInput
              label="GB"
              min={1}
              max={TOPUP_MAX_GB}
              allowDecimal={false}
              allowNegative={false}
              value={gb}
              onChange={(value) => setGb(typeof value === 'number' ? value : Number(value) || 0)}
              disabled={issued !== null}
            />
            <Select
              label="Currency"
              value={currency}
              allowDeselect={false}
              onChange={(value) => value && setCurrency(value as PlanCurrency)}
              data={PLAN_CURRENCIES.map((option) => ({ value: option, label: `${option.toUpperCase()} (${CURRENCY_SYMBOLS[option]})` }))}
              disabled={issued !== null}
            />
          </Group>
          {left !== null && (
            <Text size="sm" c={gb > left ? 'red' : 'dimmed'}>
              Your plan lets you top up {left} GB more.
            </Text>
          )}

          {quote.status === 'loading' && <Loader size="sm" aria-label="Loading the price" />}
          {quote.status === 'error' && <Alert color="red">{quote.message}</Alert>}
          {quote.status === 'ready' && (
            <Table aria-label="Top-up price" withRowBorders={false} verticalSpacing={4}>
              <Table.Tbody>
                <Table.Tr>
                  <Table.Td>
                    {quote.quote.gb} GB of {kindName} storage at {formatPrice(quote.quote.unit_amount, quote.quote.currency)} a GB
                  </Table.Td>
                  <Table.Td ta="right">{formatPrice(quote.quote.subtotal, quote.quote.currency)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td>VAT {quote.quote.tax_percent}% included</Table.Td>
                  <Table.Td ta="right">{formatPrice(quote.quote.total_tax, quote.quote.currency)}</Table.Td>
                </Table.Tr>
                <Table.Tr>
                  <Table.Td fw={700}>Total</Table.Td>
                  <Table.Td ta="right" fw={700} data-testid="topup-total">
                    {formatPrice(quote.quote.total, quote.quote.currency)}
                  </Table.Td>
                </Table.Tr>
              </Table.Tbody>
            </Table>
          )}

          <Divider />
          <Title order={3} size="h5">
            Billing details
          </Title>
          {details === null && <Text size="sm">Billing details go on the invoice: save them before topping up.</Text>}
          <BillingDetailsSection onChange={setDetails} />
          <Divider />

          <Checkbox
            label="I accept the terms and conditions"
            checked={terms}
            disabled={issued !== null}
            onChange={(event) => {
              setTerms(event.currentTarget.checked);
              setTermsTouched(true);
            }}
          />
          {termsTouched && !terms && (
            <Text c="red" size="sm" role="alert">
              {BILLING_TEXTS.termsRequired}
            </Text>
          )}
          {issued ? (
            <Alert color="blue" title={`Invoice ${issued.number} issued`} role="status">
              {formatPrice(issued.amount_due, issued.currency)} to pay by invoice. Your {kindName} storage grows by {gb} GB when the server's operator marks
              the invoice paid.
            </Alert>
          ) : (
            <Group justify="flex-end">
              <Button variant="default" onClick={onClose}>
                Cancel
              </Button>
              <Button loading={buying} disabled={quote.status !== 'ready' || !details} onClick={() => void buy()}>
                Buy top-up
              </Button>
            </Group>
          )}
          {issued && (
            <Group justify="flex-end">
              <Button onClick={onClose}>Done</Button>
            </Group>
          )}
        </Stack>
      </Modal>
    </>
  );
}
