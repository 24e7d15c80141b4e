import { Anchor, Button, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { Link } from '@tanstack/react-router';
import { useServerConfig } from '../../app/serverConfigStore';
import { canCreateVault } from '../../domain/navigationRules';
import { IconLock, IconWorld } from '../../ui/icons';
import { type Choice, ChoiceCards } from './ChoiceCards';
import { ReadOnlyAlert } from './ReadOnlyAlert';
import { useWizardArrowKeys } from './useWizardArrowKeys';
import { useGoToWizardStep } from './wizardNavigation';

type UploadKind = 'public' | 'private';

const CHOICES: Choice<UploadKind>[] = [
  {
    value: 'public',
    title: 'NFT assets / public archives',
    description: 'Stored permanently and open to anyone with the link. Suited to NFTs, datasets and records meant to last.',
    icon: IconWorld,
  },
  {
    value: 'private',
    title: 'Private files',
    description: 'Stored permanently and encrypted on this device first: only you and the members you invite can read them.',
    icon: IconLock,
  },
];

/** /create-vault/setup: the first screen of the vault wizard (spec 002 "Vault creation"). */
export function VaultSetupPage() {
  const { isReadOnly } = useServerConfig();
  const [kind, setKind] = useState<UploadKind | null>(null);
  const canCreate = canCreateVault(isReadOnly);
  const goTo = useGoToWizardStep();

  // Both setup answers are permanent storage; the privacy follows the kind of upload.
  const setUpVault = kind && canCreate ? () => goTo('metadata', { storage: 'permanent', privacy: kind, from: 'setup' }) : null;
  const customise = canCreate ? () => goTo('storage', {}) : null;
  useWizardArrowKeys(null, setUpVault);

  function submit(event: FormEvent) {
    event.preventDefault();
    setUpVault?.();
  }

  return (
    <Stack maw={760} mx="auto" gap="xl" py={{ base: 0, xs: 'md' }}>
      <form onSubmit={submit}>
        <Stack gap="lg">
          <Title order={1} fz={{ base: 24, xs: 30 }} ta="center">
            What are you uploading?
          </Title>
          <ChoiceCards label="What are you uploading?" choices={CHOICES} value={kind ?? undefined} onChange={setKind} />

          {!canCreate && <ReadOnlyAlert />}

          <Stack align="center" gap="sm">
            <Button type="submit" size="md" miw={220} disabled={!kind || !canCreate}>
              Setup vault
            </Button>
            <Text size="sm" c="dimmed">
              Need cloud storage?{' '}
              <Anchor component="button" type="button" inherit onClick={() => customise?.()} disabled={!canCreate}>
                Customise your setup
              </Anchor>
            </Text>
            <Text size="sm" c="dimmed">
              Have a permanent vault on the network?{' '}
              <Anchor component={Link} to="/restore-vault" inherit>
                Restore a vault from the network
              </Anchor>
            </Text>
          </Stack>
        </Stack>
      </form>
    </Stack>
  );
}
