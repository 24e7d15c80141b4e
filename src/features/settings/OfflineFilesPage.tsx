import { Button, Group, Paper, Progress, Stack, Switch, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import { formatBytes } from '../../domain/formatting';
import { useStoreAccount } from '../../storage/vaultStore';
import { useShownVaults } from '../branding/useShownVaults';
import { clearOfflineFiles, makeVaultAvailableOffline, offlineUsage, type OfflineUsage, useOfflineCacheVersion, useOfflineProgress } from '../../sync/offlineFiles';
import { confirmAction } from '../../ui/confirmAction';
import { runWithErrorSnackbar, showSnackbar } from '../../ui/snackbar';
import { BACK_TO_ACCOUNT, SettingsPage } from './SettingsPage';

/**
 * /account/offline (docs/SYNC_SPEC.md R15): what this device keeps for offline use, 'Available
 * offline' for each vault, and a way to clear it all. Copies stay encrypted until a file is opened.
 */
export function OfflineFilesPage() {
  const accountId = useStoreAccount();
  const vaults = useShownVaults('active');
  const progress = useOfflineProgress();
  const cacheVersion = useOfflineCacheVersion();
  const [usage, setUsage] = useState<OfflineUsage | null>(null);
  const [isSupported] = useState(() => typeof caches !== 'undefined');

  useEffect(() => {
    if (!accountId || !isSupported) return;
    let live = true;
    void offlineUsage(accountId).then((next) => live && setUsage(next));
    return () => {
      live = false;
    };
  }, [accountId, cacheVersion, isSupported]);

  function toggle(vaultId: string, name: string, keep: boolean) {
    void runWithErrorSnackbar(async () => {
      await makeVaultAvailableOffline(vaultId, keep);
      showSnackbar(keep ? `${name} is available offline.` : `${name} is no longer kept offline.`);
    }, 'There was an error.');
  }

  function clearAll() {
    if (!accountId) return;
    confirmAction({
      title: 'Clear offline files?',
      message: 'Files opened on this device and vaults kept offline will need the network again. Nothing is removed from your vaults.',
      confirmLabel: 'Clear',
      isDanger: true,
      onConfirm: async () => {
        for (const vault of vaults ?? []) if (vault.keepOffline) await makeVaultAvailableOffline(vault.vaultId, false);
        await clearOfflineFiles(accountId);
        showSnackbar('Offline files cleared.');
      },
    });
  }

  return (
    <SettingsPage title="Offline files" back={BACK_TO_ACCOUNT}>
      <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
        <Stack gap="xs">
          {isSupported ? (
            <>
              <Text fw={500} data-testid="offline-usage">
                {usage ? `${formatBytes(usage.totalBytes)} kept on this device` : 'Measuring…'}
              </Text>
              <Text size="sm" c="dimmed">
                Files you open stay available offline, encrypted, until you clear them or log out.
              </Text>
              <Group mt="xs">
                <Button variant="default" color="red" onClick={clearAll} disabled={!usage || usage.totalBytes === 0}>
                  Clear offline files
                </Button>
              </Group>
            </>
          ) : (
            <Text size="sm">This browser cannot keep files for offline use.</Text>
          )}
        </Stack>
      </Paper>
      {isSupported && (
        <Paper withBorder radius="md" p={{ base: 'md', sm: 'lg' }}>
          <Stack gap="md">
            <Text fw={500}>Vaults available offline</Text>
            {vaults?.length === 0 && <Text size="sm" c="dimmed">You have no active vaults yet.</Text>}
            {vaults?.map((vault) => {
              const running = progress.get(vault.vaultId);
              const kept = usage?.byVault.get(vault.vaultId) ?? 0;
              return (
                <Stack key={vault.vaultId} gap={4}>
                  <Group justify="space-between" wrap="nowrap">
                    <Stack gap={0} miw={0}>
                      <Text truncate>{vault.name || 'Untitled vault'}</Text>
                      <Text size="xs" c="dimmed">
                        {formatBytes(kept)} kept
                      </Text>
                    </Stack>
                    <Switch
                      aria-label={`Available offline: ${vault.name}`}
                      checked={!!vault.keepOffline}
                      onChange={(event) => toggle(vault.vaultId, vault.name, event.currentTarget.checked)}
                    />
                  </Group>
                  {running && (
                    <>
                      <Progress value={running.totalChunks ? (100 * running.doneChunks) / running.totalChunks : 100} size="sm" aria-label={`Making ${vault.name} available offline`} />
                      {running.error && (
                        <Text size="xs" c="red" role="alert">
                          {running.error}
                        </Text>
                      )}
                    </>
                  )}
                </Stack>
              );
            })}
          </Stack>
        </Paper>
      )}
    </SettingsPage>
  );
}
