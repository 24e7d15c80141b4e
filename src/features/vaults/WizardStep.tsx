import { Button, Group, Stack, Text, Title } from '@mantine/core';
import type { FormEvent, ReactNode } from 'react';
import { useWizardArrowKeys } from './useWizardArrowKeys';

interface WizardStepProps {
  /** 'Step 1 of 3', or nothing on the short path. */
  stepLabel?: string;
  title: string;
  children: ReactNode;
  onBack: () => void;
  /** Continues (or submits); null while the step is incomplete. */
  onNext: (() => void) | null;
  nextLabel: string;
  isBusy?: boolean;
  /** The last step submits: the Right arrow does not (creating a vault takes a deliberate click). */
  isFinal?: boolean;
}

/** One screen of the vault wizard: heading, content, Back and Next; Left/Right arrows do the same. */
export function WizardStep({ stepLabel, title, children, onBack, onNext, nextLabel, isBusy, isFinal }: WizardStepProps) {
  useWizardArrowKeys(isBusy ? null : onBack, isBusy || isFinal ? null : onNext);

  function submit(event: FormEvent) {
    event.preventDefault();
    onNext?.();
  }

  return (
    <Stack maw={760} mx="auto" gap="xl" py={{ base: 0, xs: 'md' }}>
      <form onSubmit={submit} noValidate>
        <Stack gap="lg">
          <Stack gap={4} align="center">
            {stepLabel && (
              <Text size="sm" c="dimmed" fw={600}>
                {stepLabel}
              </Text>
            )}
            <Title order={1} fz={{ base: 24, xs: 30 }} ta="center">
              {title}
            </Title>
          </Stack>
          {children}
          <Group justify="space-between">
            <Button variant="default" onClick={onBack} disabled={isBusy} aria-keyshortcuts="ArrowLeft">
              Back
            </Button>
            <Button type="submit" disabled={!onNext} loading={isBusy} aria-keyshortcuts={isFinal ? undefined : 'ArrowRight'}>
              {nextLabel}
            </Button>
          </Group>
        </Stack>
      </form>
    </Stack>
  );
}
