import { Stack, Text, Title } from '@mantine/core';
import { useServerConfig } from '../../app/serverConfigStore';
import { PageHeader } from '../../ui/PageHeader';
import { ReferFriendButton } from '../referrals/ReferFriendButton';
import { StorageCards } from './StorageCards';
import { StorageTransactions } from './StorageTransactions';

/** Issue 20: the server has no ARWEAVE_GATEWAY, so "permanent" files are kept by a local test gateway. */
export const EMBEDDED_GATEWAY_NOTE =
  'This server keeps permanent vaults on its own test gateway, not on the permanent network.';

/**
 * /storage (spec 000 section 2, Storage page): the permanent and cloud storage cards and the
 * user's network transactions, both from this device's cache (docs/SYNC_SPEC.md R38-R39), so the
 * page opens offline with what was last seen and follows status changes live.
 */
export function StoragePage() {
  const isEmbeddedGateway = useServerConfig().config?.permanentOnEmbeddedGateway ?? false;
  return (
    <>
      <PageHeader title="Storage" description="Your permanent and cloud storage, and what you have used." actions={<ReferFriendButton />} />
      <Stack gap="xl">
        <Stack gap="xs">
          <StorageCards />
          {isEmbeddedGateway && (
            <Text size="sm" c="dimmed">
              {EMBEDDED_GATEWAY_NOTE}
            </Text>
          )}
        </Stack>
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
