/**
 * Checkout (issue 21; spec 002 'Plan and checkout content', sections 5 and 8; SYNC_SPEC
 * R112-R114): billing details, the card section, a discount code, the upcoming invoice and the
 * terms. Every figure comes from the server (POST /api/billing/upcoming-invoice); this page only
 * shows it. Billing details are checked here with the same schema the server checks them with.
 */
import { Alert, Anchor, Button, Checkbox, Divider, Group, Loader, Paper, SimpleGrid, Stack, Table, Text, TextInput, Title } from '@mantine/core';
import { notifications } from '@mantine/notifications';
import { Link } from '@tanstack/react-router';
import { type FormEvent, useCallback, useEffect, useState } from 'react';
import { formatPrice } from '../../domain/planPricing';
import {
  BILLING_TEXTS,
  BillingDetails,
  type BillingDetailsInput,
  BillingDetailsResponse,
  COUPON_MIN_LENGTH,
  Invoice,
  UpcomingInvoice,
} from '../../protocol/billing';
import { ApiError } from '../../protocol/errors';
import type { PlanCurrency, SubscriptionPlan } from '../../protocol/plans';
import { getApiClient } from '../../platform/apiClient';

type Field = keyof BillingDetailsInput;

const EMPTY: Required<BillingDetailsInput> = { name: '', companyName: '', companyVat: '', country: '', address: '', city: '', state: '', zip: '' };

const FIELDS: { field: Field; label: string; autoComplete: string; optional?: boolean }[] = [
  { field: 'name', label: 'Name', autoComplete: 'name' },
  { field: 'companyName', label: 'Company name', autoComplete: 'organization', optional: true },
  { field: 'companyVat', label: 'Tax ID', autoComplete: 'off', optional: true },
  { field: 'country', label: 'Country', autoComplete: 'country-name' },
  { field: 'address', label: 'Address', autoComplete: 'address-line1' },
  { field: 'city', label: 'City', autoComplete: 'address-level2' },
  { field: 'state', label: 'State', autoComplete: 'address-level1', optional: true },
  { field: 'zip', label: 'Zip code', autoComplete: 'postal-code' },
];

function messageOf(error: unknown, fallback: string): string {
  return error instanceof ApiError ? error.message : fallback;
}

/**
 * The billing address: read-only with Edit once saved (spec 002 section 4), a form otherwise. Also
 * in the storage top-up form, which follows the saved details through `onChange`.
 */
export function BillingDetailsSection({ onChange }: { onChange?: (details: BillingDetails | null) => void } = {}) {
  const [saved, setSaved] = useState<BillingDetails | null | undefined>(undefined);
  const [loadError, setLoadError] = useState<string | null>(null);
  const [editing, setEditing] = useState(false);
  const [values, setValues] = useState<Required<BillingDetailsInput>>(EMPTY);
  const [errors, setErrors] = useState<Partial<Record<Field, string>>>({});
  const [saveError, setSaveError] = useState<string | null>(null);
  const [saving, setSaving] = useState(false);

  useEffect(() => {
    getApiClient()
      .get('/billing/details', BillingDetailsResponse)
      .then((answer) => {
        setSaved(answer.details);
        onChange?.(answer.details);
        if (answer.details) setValues(answer.details);
      })
      .catch((error: unknown) => setLoadError(messageOf(error, 'Your billing details could not be loaded. Check your connection and try again.')));
    // Loaded once: the caller's onChange may be a new function each render.
  }, []);

  const submit = async (event: FormEvent) => {
    event.preventDefault();
    setSaveError(null);
    const parsed = BillingDetails.safeParse(values);
    if (!parsed.success) {
      const next: Partial<Record<Field, string>> = {};
      for (const issue of parsed.error.issues) {
        const field = issue.path[0] as Field;
        next[field] ??= issue.message;
      }
      setErrors(next);
      return;
    }
    setErrors({});
    setSaving(true);
    try {
      const answer = await getApiClient().put('/billing/details', parsed.data, BillingDetailsResponse);
      setSaved(answer.details);
      onChange?.(answer.details);
      setEditing(false);
      notifications.show({ color: 'green', message: 'Billing details saved' });
    } catch (error) {
      // Spec 002 section 8: the spec's text (its spelling) followed by the server's.
      setSaveError(`${BILLING_TEXTS.saveFailed}: ${messageOf(error, 'the server could not be reached.')}`);
    } finally {
      setSaving(false);
    }
  };

  if (loadError) return <Alert color="red">{loadError}</Alert>;
  if (saved === undefined) return <Loader size="sm" aria-label="Loading your billing details" />;

  if (saved && !editing) {
    return (
      <Stack gap={4} aria-label="Billing address">
        <Text fw={600}>{saved.name}</Text>
        {saved.companyName && <Text size="sm">{saved.companyName}</Text>}
        {saved.companyVat && <Text size="sm">Tax ID: {saved.companyVat}</Text>}
        <Text size="sm">{saved.address}</Text>
        <Text size="sm">
          {saved.zip} {saved.city}
          {saved.state ? `, ${saved.state}` : ''}
        </Text>
        <Text size="sm">{saved.country}</Text>
        <Group>
          <Button variant="default" size="xs" onClick={() => setEditing(true)}>
            Edit
          </Button>
        </Group>
      </Stack>
    );
  }

  return (
    <form onSubmit={(event) => void submit(event)} noValidate aria-label="Billing details">
      <Stack gap="sm">
        <SimpleGrid cols={{ base: 1, sm: 2 }} spacing="sm">
          {FIELDS.map(({ field, label, autoComplete, optional }) => (
            <TextInput
              key={field}
              label={optional ? `${label} (optional)` : label}
              autoComplete={autoComplete}
              value={values[field]}
              error={errors[field]}
              onChange={(event) => {
                const value = event.currentTarget.value;
                setValues((current) => ({ ...current, [field]: value }));
              }}
            />
          ))}
        </SimpleGrid>
        {saveError && (
          <Text c="red" size="sm" role="alert">
            {saveError}
          </Text>
        )}
        <Group>
          <Button type="submit" loading={saving}>
            Save billing details
          </Button>
          {saved && (
            <Button variant="default" onClick={() => setEditing(false)}>
              Cancel
            </Button>
          )}
        </Group>
      </Stack>
    </form>
  );
}

type InvoiceState = { status: 'loading' } | { status: 'error'; message: string } | { status: 'ready'; invoice: UpcomingInvoice };

/** The upcoming invoice as the server computed it (R114): subtotal, discount, VAT included, total. */
function InvoiceSummary({ state }: { state: InvoiceState }) {
  if (state.status === 'loading') return <Loader size="sm" aria-label="Loading the upcoming invoice" />;
  if (state.status === 'error') return <Alert color="red">{state.message}</Alert>;
  const { invoice } = state;
  const price = (amount: number) => formatPrice(amount, invoice.currency);
  const rows: [string, string][] = [[`${invoice.planName}${invoice.quantity > 1 ? ` × ${invoice.quantity}` : ''}`, price(invoice.subtotal)]];
  rows.push(['Subtotal', price(invoice.subtotal)]);
  if (invoice.discount) {
    const off = invoice.discount.coupon.percent_off === null ? '' : ` (${invoice.discount.coupon.percent_off}% off)`;
    rows.push([`Discount ${invoice.discount.coupon.name}${off}`, `-${price(invoice.discount.amount)}`]);
  }
  rows.push([`VAT (${invoice.tax_percent}% included)`, price(invoice.total_tax)]);
  return (
    <Table aria-label="Upcoming invoice" withRowBorders={false} verticalSpacing={4}>
      <Table.Tbody>
        {rows.map(([label, amount]) => (
          <Table.Tr key={label}>
            <Table.Th fw={400} scope="row">
              {label}
            </Table.Th>
            <Table.Td ta="right">{amount}</Table.Td>
          </Table.Tr>
        ))}
        <Table.Tr>
          <Table.Th scope="row">Total</Table.Th>
          <Table.Td ta="right" fw={700}>
            {price(invoice.total)}
          </Table.Td>
        </Table.Tr>
      </Table.Tbody>
    </Table>
  );
}

export function CheckoutForm({ plan, currency, quantity }: { plan: SubscriptionPlan; currency: PlanCurrency; quantity: number }) {
  const [code, setCode] = useState('');
  const [applied, setApplied] = useState<string | null>(null);
  const [couponError, setCouponError] = useState<string | null>(null);
  const [applying, setApplying] = useState(false);
  const [invoice, setInvoice] = useState<InvoiceState>({ status: 'loading' });
  const [terms, setTerms] = useState(false);
  const [renewal, setRenewal] = useState(false);
  const [termsTouched, setTermsTouched] = useState(false);
  const [subscribing, setSubscribing] = useState(false);
  const [issued, setIssued] = useState<Invoice | null>(null);
  const [subscribeError, setSubscribeError] = useState<string | null>(null);

  const subscribe = async () => {
    setSubscribeError(null);
    if (!(terms && renewal)) {
      setTermsTouched(true);
      return;
    }
    setSubscribing(true);
    try {
      const invoice = await getApiClient().post(
        '/billing/subscriptions',
        { planId: plan.id, currency, quantity, ...(applied ? { coupon: applied } : {}), acceptTerms: true, acceptRenewal: true },
        Invoice,
      );
      setIssued(invoice);
    } catch (error) {
      setSubscribeError(messageOf(error, 'Payment request failed. Please try again..'));
    } finally {
      setSubscribing(false);
    }
  };

  const simulate = useCallback(
    (coupon: string | null) => getApiClient().post('/billing/upcoming-invoice', { planId: plan.id, currency, quantity, ...(coupon ? { coupon } : {}) }, UpcomingInvoice),
    [plan.id, currency, quantity],
  );

  useEffect(() => {
    setInvoice({ status: 'loading' });
    simulate(null)
      .then((answer) => setInvoice({ status: 'ready', invoice: answer }))
      .catch((error: unknown) => setInvoice({ status: 'error', message: messageOf(error, 'The upcoming invoice could not be computed. Check your connection and try again.') }));
  }, [simulate]);

  const apply = async () => {
    setApplying(true);
    setCouponError(null);
    try {
      const answer = await simulate(code.trim());
      setApplied(answer.discount?.coupon.name ?? code.trim());
      setInvoice({ status: 'ready', invoice: answer });
      notifications.show({ color: 'green', message: 'Discount applied' });
    } catch (error) {
      if (error instanceof ApiError && (error.code === 'COUPON_INVALID' || error.code === 'VALIDATION_FAILED')) {
        // Spec 002 section 8: a rejected code shows the text and is removed, with any earlier discount.
        setCouponError(BILLING_TEXTS.couponRejected);
        setCode('');
        if (applied) {
          setApplied(null);
          simulate(null)
            .then((answer) => setInvoice({ status: 'ready', invoice: answer }))
            .catch(() => {});
        }
      } else {
        setCouponError(messageOf(error, 'The discount code could not be checked. Check your connection and try again.'));
      }
    } finally {
      setApplying(false);
    }
  };

  return (
    <Stack gap="lg">
      <Paper component="section" aria-labelledby="billing-details-title" withBorder radius="md" p="lg">
        <Stack gap="sm">
          <Title order={3} size="h4" id="billing-details-title">
            Billing details
          </Title>
          <BillingDetailsSection />
        </Stack>
      </Paper>

      <Paper component="section" aria-labelledby="card-title" withBorder radius="md" p="lg">
        <Stack gap="xs">
          <Title order={3} size="h4" id="card-title">
            Card
          </Title>
          <Text size="sm">Card payment is not configured on this server.</Text>
        </Stack>
      </Paper>

      <Paper component="section" aria-labelledby="summary-title" withBorder radius="md" p="lg">
        <Stack gap="sm">
          <Title order={3} size="h4" id="summary-title">
            Upcoming invoice
          </Title>
          <Group align="flex-start" gap="xs" wrap="nowrap">
            <TextInput
              label="Discount code"
              value={code}
              error={couponError}
              style={{ flex: 1 }}
              onChange={(event) => {
                setCode(event.currentTarget.value);
                setCouponError(null);
              }}
              onKeyDown={(event) => {
                if (event.key === 'Enter' && code.trim().length >= COUPON_MIN_LENGTH) void apply();
              }}
            />
            {/* Spec 002 section 5: Apply appears at 3 or more characters. */}
            {code.trim().length >= COUPON_MIN_LENGTH && (
              <Button mt={25} variant="default" loading={applying} onClick={() => void apply()}>
                Apply
              </Button>
            )}
          </Group>
          {applied && (
            <Text size="sm" c="green" role="status">
              Discount code {applied} applied.
            </Text>
          )}
          <Divider />
          <InvoiceSummary state={invoice} />
        </Stack>
      </Paper>

      <Paper component="section" aria-labelledby="terms-title" withBorder radius="md" p="lg">
        <Stack gap="sm">
          <Title order={3} size="h4" id="terms-title">
            Terms
          </Title>
          <Text size="sm">This is a monthly subscription with automatic renewal. Payments are non-refundable for the month.</Text>
          <Text size="sm">1% of your purchase is contributed to carbon removal.</Text>
          <Checkbox
            label="I accept the terms and conditions"
            checked={terms}
            onChange={(event) => {
              setTerms(event.currentTarget.checked);
              setTermsTouched(true);
            }}
          />
          <Checkbox
            label="I understand the subscription renews automatically every month"
            checked={renewal}
            onChange={(event) => {
              setRenewal(event.currentTarget.checked);
              setTermsTouched(true);
            }}
          />
          {/* Spec 002 section 5: a subscription requires accepting terms and renewal. */}
          {termsTouched && !(terms && renewal) && (
            <Text c="red" size="sm" role="alert">
              {BILLING_TEXTS.termsRequired}
            </Text>
          )}
          {subscribeError && (
            <Text c="red" size="sm" role="alert">
              {subscribeError}
            </Text>
          )}
          {issued ? (
            <Alert color="blue" title={`Invoice ${issued.number} issued`} role="status">
              {formatPrice(issued.amount_due, issued.currency)} to pay by invoice. Your plan changes to {plan.name} when the server's operator marks the
              invoice paid.{' '}
              <Anchor component={Link} to="/account/plans-and-payments/invoices" size="sm">
                Download it from your invoices
              </Anchor>
              .
            </Alert>
          ) : (
            <>
              <Group>
                <Button loading={subscribing} onClick={() => void subscribe()}>
                  Subscribe
                </Button>
              </Group>
              <Text size="sm" c="dimmed">
                You pay by invoice: subscribing issues one, and your plan changes when the server's operator marks it paid.
              </Text>
            </>
          )}
        </Stack>
      </Paper>
    </Stack>
  );
}
