import { Anchor, Button, Group, Radio, SimpleGrid, Stack, Text, Title } from '@mantine/core';
import { type FormEvent, useState } from 'react';
import { useServerConfig } from '../../app/serverConfigStore';
import { canCreateVault } from '../../domain/navigationRules';
import { IconLock, IconWorld } from '../../ui/icons';
import { ReadOnlyAlert } from './ReadOnlyAlert';
import { useWizardArrowKeys } from './useWizardArrowKeys';
import { useGoToWizardStep } from './wizardNavigation';

type UploadKind = 'public' | 'private';

const CHOICES: { value: UploadKind; title: string; description: string; icon: typeof IconLock }[] = [
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
          <Radio.Group
            value={kind}
            onChange={(value) => {
              setKind(value as UploadKind);
            }}
            label={
              <Title order={1} fz={{ base: 24, xs: 30 }} ta="center" w="100%" component="span" display="block">
                What are you uploading?
              </Title>
            }
            styles={{ label: { width: '100%', marginBottom: 'var(--mantine-spacing-lg)' } }}
          >
            <SimpleGrid cols={{ base: 1, xs: 2 }} spacing="md">
              {CHOICES.map((choice) => (
                <Radio.Card
                  key={choice.value}
                  value={choice.value}
                  radius="md"
                  p="lg"
                  h="100%"
                  aria-label={choice.title}
                  aria-description={choice.description}
                >
                  <Group wrap="nowrap" align="flex-start" gap="md">
                    <Radio.Indicator mt={2} />
                    <Stack gap={6}>
                      <Group gap="xs" wrap="nowrap">
                        <choice.icon size={20} />
                        <Text fw={700}>{choice.title}</Text>
                      </Group>
                      <Text size="sm" c="dimmed">
                        {choice.description}
                      </Text>
                    </Stack>
                  </Group>
                </Radio.Card>
              ))}
            </SimpleGrid>
          </Radio.Group>

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
          </Stack>
        </Stack>
      </form>
    </Stack>
  );
}
