import { ActionIcon, Group, Stack, Text, Title } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { IconArrowLeft } from '../../ui/icons';
import { useVaultRoom } from '../files/VaultRoomContext';

/** The heading of the invite and manage-access pages: back to the vault, the title, the vault's name. */
export function MemberPageHeader({ title }: { title: string }) {
  const { vault, status } = useVaultRoom();
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start" mb="lg">
      <ActionIcon
        renderRoot={(props) => <Link to="/vaults/$status/$vaultId/assets" params={{ status, vaultId: vault.vaultId }} {...props} />}
        variant="subtle"
        color="gray"
        size="lg"
        aria-label="Back to the vault"
      >
        <IconArrowLeft size={20} />
      </ActionIcon>
      <Stack gap={2} miw={0}>
        <Title order={1} fz={{ base: 22, xs: 28 }}>
          {title}
        </Title>
        <Text c="dimmed" truncate>
          {vault.name || 'Untitled vault'}
        </Text>
      </Stack>
    </Group>
  );
}
