import { Stack, Title } from '@mantine/core';
import { PageHeader } from '../../ui/PageHeader';
import { StorageCards } from './StorageCards';
import { StorageTransactions } from './StorageTransactions';

/**
 * /storage (spec 000 section 2, Storage page): the permanent and cloud storage cards and the
 * user's network transactions, both from this device's cache (docs/SYNC_SPEC.md R38-R39), so the
 * page opens offline with what was last seen and follows status changes live.
 */
export function StoragePage() {
  return (
    <>
      <PageHeader title="Storage" description="Your permanent and cloud storage, and what you have used." />
      <Stack gap="xl">
        <StorageCards />
        <Stack gap="sm" component="section" aria-labelledby="storage-transactions-title">
          <Title order={2} size="h4" id="storage-transactions-title">
            Transactions
          </Title>
          <StorageTransactions />
        </Stack>
      </Stack>
    </>
  );
}
