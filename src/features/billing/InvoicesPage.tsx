import { Alert, Badge, Box, Button, Center, Group, Loader, Paper, Stack, Table, Text, VisuallyHidden } from '@mantine/core';
import { useCallback, useEffect, useRef, useState } from 'react';
import { formatDate } from '../../domain/formatting';
import { formatPrice } from '../../domain/planPricing';
import { INVOICE_PAGE_SIZE, type Invoice, InvoicePage } from '../../protocol/billing';
import { ApiError } from '../../protocol/errors';
import { getApiClient } from '../../platform/apiClient';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconDownload, IconFile } from '../../ui/icons';

type State =
  | { status: 'loading' }
  | { status: 'error'; message: string }
  | { status: 'ready'; invoices: Invoice[]; hasMore: boolean; loadingMore: boolean; moreError: string | null };

function messageOf(error: unknown): string {
  return error instanceof ApiError ? error.message : 'Your invoices could not be loaded. Check your connection and try again.';
}

/** The most a refresh asks for at once (the server's largest page). */
const MAX_REFRESH = 50;

function pageUrl(after: string | null, limit = INVOICE_PAGE_SIZE): string {
  return `/billing/invoices?limit=${limit}${after ? `&after=${encodeURIComponent(after)}` : ''}`;
}

function StatusBadge({ invoice }: { invoice: Invoice }) {
  return (
    <Badge variant="light" color={invoice.status === 'paid' ? 'green' : 'yellow'}>
      {invoice.status === 'paid' ? 'Paid' : 'Open'}
    </Badge>
  );
}

/**
 * The invoice's PDF (SYNC_SPEC R116). A plain link: the session cookie goes with it, and the
 * server's Content-Disposition names the file from the invoice number (spec 002 section 9).
 */
function DownloadLink({ invoice }: { invoice: Invoice }) {
  return (
    <Button
      component="a"
      href={`/api/billing/invoices/${encodeURIComponent(invoice.id)}/pdf`}
      download={`${invoice.number}.pdf`}
      variant="default"
      size="xs"
      leftSection={<IconDownload size={14} />}
      aria-label={`Download invoice ${invoice.number}`}
    >
      Download
    </Button>
  );
}

/**
 * /account/plans-and-payments/invoices (spec 002 sections 2, 7 and 9): the account's invoices, 5 a
 * page newest first with 'Load more' while the server says there are more (`has_more`), each with
 * its date, status, total in its currency and a Download; the spec's 'no invoices' empty state.
 */
export function InvoicesPage() {
  const [state, setState] = useState<State>({ status: 'loading' });

  // How many invoices are on screen, so a refresh on focus keeps the pages already loaded.
  const shown = useRef(0);
  useEffect(() => {
    shown.current = state.status === 'ready' ? state.invoices.length : 0;
  }, [state]);

  const loadFirst = useCallback((quietly = false) => {
    if (!quietly) setState({ status: 'loading' });
    const limit = Math.min(MAX_REFRESH, Math.max(INVOICE_PAGE_SIZE, shown.current));
    getApiClient()
      .get(pageUrl(null, limit), InvoicePage)
      .then((page) => setState({ status: 'ready', invoices: page.data, hasMore: page.has_more, loadingMore: false, moreError: null }))
      .catch((error: unknown) => {
        // A refresh that fails keeps the list on screen rather than a blip's error.
        if (!quietly) setState({ status: 'error', message: messageOf(error) });
      });
  }, []);

  useEffect(() => {
    loadFirst();
    // The operator marks an invoice paid from another process (SYNC_SPEC R115), which no socket
    // message announces: the list is read again, without a spinner, when the user comes back.
    const onFocus = () => loadFirst(true);
    window.addEventListener('focus', onFocus);
    return () => window.removeEventListener('focus', onFocus);
  }, [loadFirst]);

  if (state.status === 'loading') {
    return (
      <Center py="xl">
        <Loader aria-label="Loading your invoices" />
      </Center>
    );
  }
  if (state.status === 'error') {
    return (
      <Alert color="red" title="Invoices not loaded">
        <Stack gap="sm" align="flex-start">
          <Text size="sm">{state.message}</Text>
          <Button size="xs" variant="default" onClick={() => loadFirst()}>
            Try again
          </Button>
        </Stack>
      </Alert>
    );
  }
  if (state.invoices.length === 0) {
    return (
      <EmptyPanel
        icon={<IconFile size={28} />}
        title="No invoices yet"
        description="When you subscribe to a plan or top up storage, its invoices are listed here to download."
      />
    );
  }

  const loadMore = async () => {
    const last = state.invoices.at(-1);
    if (!last) return;
    setState({ ...state, loadingMore: true, moreError: null });
    try {
      const page = await getApiClient().get(pageUrl(last.id), InvoicePage);
      setState({ status: 'ready', invoices: [...state.invoices, ...page.data], hasMore: page.has_more, loadingMore: false, moreError: null });
    } catch (error) {
      setState({ ...state, loadingMore: false, moreError: messageOf(error) });
    }
  };

  return (
    <Stack gap="md">
      <Paper withBorder radius="md">
        <Table aria-label="Invoices" verticalSpacing="sm" horizontalSpacing="sm">
          <Table.Thead>
            <Table.Tr>
              <Table.Th>Invoice</Table.Th>
              {/* On a phone the status moves under the number, so the Download stays in view. */}
              <Table.Th visibleFrom="sm">Status</Table.Th>
              <Table.Th ta="right">Total</Table.Th>
              <Table.Th>
                <VisuallyHidden>PDF</VisuallyHidden>
              </Table.Th>
            </Table.Tr>
          </Table.Thead>
          <Table.Tbody>
            {state.invoices.map((invoice) => (
              <Table.Tr key={invoice.id}>
                <Table.Td>
                  <Text size="sm" fw={600}>
                    {invoice.number}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {formatDate(invoice.created * 1000)}
                  </Text>
                  <Box hiddenFrom="sm" mt={4}>
                    <StatusBadge invoice={invoice} />
                  </Box>
                </Table.Td>
                <Table.Td visibleFrom="sm">
                  <StatusBadge invoice={invoice} />
                </Table.Td>
                <Table.Td ta="right">
                  <Text size="sm">{formatPrice(invoice.total, invoice.currency)}</Text>
                </Table.Td>
                <Table.Td ta="right">
                  <DownloadLink invoice={invoice} />
                </Table.Td>
              </Table.Tr>
            ))}
          </Table.Tbody>
        </Table>
      </Paper>
      {state.moreError && (
        <Text c="red" size="sm" role="alert">
          {state.moreError}
        </Text>
      )}
      {state.hasMore && (
        <Group justify="center">
          <Button variant="default" loading={state.loadingMore} onClick={() => void loadMore()}>
            Load more
          </Button>
        </Group>
      )}
    </Stack>
  );
}
