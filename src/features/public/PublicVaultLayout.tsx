import { Anchor, Badge, Button, Center, Group, Loader, Stack, Tabs, Text, Title } from '@mantine/core';
import { Link, Outlet, useNavigate, useParams, useRouterState } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { loadPublicVault, type PublicVault, PublicVaultError } from '../../public/publicProjection';
import { EmptyPanel } from '../../ui/EmptyPanel';
import { IconAlert, IconWorld } from '../../ui/icons';
import { nftListHref } from '../nfts/nftPaths';
import { publicFolderHref } from './publicHref';
import { PublicVaultContext } from './PublicVaultContext';

/** What a private, deleted or unknown vault shows under /public: the server cannot tell them apart either. */
export const PUBLIC_VAULT_NOT_FOUND = 'This vault does not exist or is not public.';

type LoadState = { vaultId: string } & ({ status: 'loading' } | { status: 'ready'; vault: PublicVault } | { status: 'error'; error: PublicVaultError });

/**
 * A public vault, read-only (spec 001 section 2, public vault viewer): loaded once per vault id
 * into memory (src/public/publicProjection.ts), with the tabs Files and Atomic NFTs (permanent
 * vaults only: a cloud vault has no NFTs, spec 002 section 6).
 */
export function PublicVaultLayout() {
  const { vaultId, status } = useParams({ from: '/public/vaults/$status/$vaultId' });
  const navigate = useNavigate();
  const tab = /^\/public\/vaults\/[^/]+\/[^/]+\/nfts(\/|$)/.test(useRouterState({ select: (state) => state.location.pathname })) ? 'nfts' : 'files';
  const [load, setLoad] = useState<LoadState>({ vaultId, status: 'loading' });

  useEffect(() => {
    let isCurrent = true;
    setLoad({ vaultId, status: 'loading' });
    loadPublicVault(vaultId).then(
      (vault) => isCurrent && setLoad({ vaultId, status: 'ready', vault }),
      (error: unknown) =>
        isCurrent &&
        setLoad({ vaultId, status: 'error', error: error instanceof PublicVaultError ? error : new PublicVaultError('FAILED', 'The vault could not be loaded.') }),
    );
    return () => {
      isCurrent = false;
    };
  }, [vaultId]);

  if (load.status === 'loading' || load.vaultId !== vaultId) {
    return (
      <Center py="xl">
        <Loader aria-label="Loading the vault" />
      </Center>
    );
  }
  if (load.status === 'error') {
    const isMissing = load.error.code === 'NOT_FOUND';
    return (
      <EmptyPanel
        icon={<IconAlert size={24} />}
        title={isMissing ? PUBLIC_VAULT_NOT_FOUND : 'The vault could not be loaded.'}
        description={isMissing ? 'Log in to see your own vaults.' : load.error.message}
        actions={
          <Button component={Link} to="/login">
            Log in
          </Button>
        }
      />
    );
  }

  const { vault } = load;
  return (
    <PublicVaultContext.Provider value={vault}>
      <Stack gap="md">
        <Group gap="sm" wrap="nowrap">
          <IconWorld size={22} aria-hidden />
          <Title order={1} fz={{ base: 22, xs: 28 }} style={{ overflowWrap: 'anywhere' }}>
            {vault.state.vault.name || 'Untitled vault'}
          </Title>
          <Badge variant="light">Public</Badge>
          {vault.summary.status === 'ARCHIVED' && <Badge color="gray">Archived</Badge>}
        </Group>
        {vault.state.vault.description && (
          <Text c="dimmed" style={{ overflowWrap: 'anywhere' }}>
            {vault.state.vault.description}
          </Text>
        )}
        {!vault.summary.isCloud && (
          <Tabs
            value={tab}
            keepMounted={false}
            onChange={(value) => {
              if (value && value !== tab) void navigate({ to: value === 'nfts' ? nftListHref('public', status, vaultId) : publicFolderHref('assets', status, vaultId, null) });
            }}
          >
            <Tabs.List>
              <Tabs.Tab value="files">Files</Tabs.Tab>
              <Tabs.Tab value="nfts">Atomic NFTs</Tabs.Tab>
            </Tabs.List>
          </Tabs>
        )}
        <Outlet />
        <Text size="xs" c="dimmed">
          Anyone with the link can see this vault. <Anchor component={Link} to="/signup" size="xs">Sign up</Anchor> to make vaults of your own.
        </Text>
      </Stack>
    </PublicVaultContext.Provider>
  );
}
