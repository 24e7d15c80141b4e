import { Button, Group, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { InvitationLayout } from './InvitationLayout';

/** A membership that could not be loaded: withdrawn, for another account, or the network failed. */
export function InvitationNotFound({ title }: { title: string }) {
  const navigate = useNavigate();
  return (
    <InvitationLayout title={title}>
      <Text>
        This invitation could not be opened. It may have been withdrawn, or it was sent to another account than the one you
        are signed in with.
      </Text>
      <Group justify="flex-end">
        <Button onClick={() => void navigate({ to: '/' })}>View your vaults</Button>
      </Group>
    </InvitationLayout>
  );
}
