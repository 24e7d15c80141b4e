import { Center, Loader, Stack, Text } from '@mantine/core';
import { useIsWaitingForConnection } from '../../sync/useAbsentOnServer';

type Target = 'vault' | 'file' | 'note';

/**
 * What a link to a vault, a file or a note shows while the device has not fetched it yet (SYNC_SPEC
 * R70): a new device opened from an e-mail, a notification or a bookmark says it is fetching,
 * and offline that it waits for the connection, rather than a 404 for something that exists.
 */
export function LinkPending({ target }: { target: Target }) {
  const isWaiting = useIsWaitingForConnection();
  return (
    <Center py="xl">
      <Stack align="center" gap="sm" maw={420}>
        <Loader aria-label={`Loading ${target}`} />
        <Text c="dimmed" ta="center" size="sm" role="status">
          {isWaiting ? `This ${target} is not on this device yet. It opens once you are back online.` : `Fetching this ${target}…`}
        </Text>
      </Stack>
    </Center>
  );
}
