import { Alert, Text } from '@mantine/core';
import type { VaultLogProblem } from '../../domain/vaultLog';

/**
 * The vault's log failed this device's checks (SYNC_SPEC R50-R52): a change the server served was
 * not signed by a member allowed to make it, came out of order, or handed out a key ring no member
 * made. The room still shows the vault as last verified; the notice says so and why.
 */
export function VaultHistoryNotice({ problem }: { problem: VaultLogProblem }) {
  return (
    <Alert color="red" variant="light" title="This vault's history could not be verified" mb="md" role="alert">
      <Text size="sm">
        A change the server sent for this vault did not pass this device's checks (change {problem.seq}: {problem.reason}). It was not applied:
        what you see is the vault as last verified. Tell the vault's owner and whoever runs your Cairn server.
      </Text>
    </Alert>
  );
}
