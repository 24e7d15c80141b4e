import { Button, Group, Progress, Stack, Text, Title } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { AuthLayout } from '../../ui/AuthLayout';
import { authService } from '../account/authService';
import { getSignupDraft } from './signupDraft';

const STEPS = [
  {
    title: 'What is a recovery phrase?',
    body: [
      'Your recovery phrase is a list of 12 ordinary words, created on this device when you signed up.',
      'Every key that encrypts your vaults and signs your actions is derived from these words, so the phrase is your account.',
    ],
  },
  {
    title: 'Keep it offline and private',
    body: [
      'Write the words down on paper or download them and store the file somewhere safe, such as an offline drive.',
      'Never share them, type them into a website or send them in a message. Anyone who has them can open your account.',
    ],
  },
  {
    title: 'The only way to recover your account',
    body: [
      'Cairn never holds your password or your keys: they stay encrypted on your devices.',
      'If you forget your password, your recovery phrase is the only way to get your account back. Without it, nobody (not even Cairn) can restore access.',
    ],
  },
] as const;

/** Step 'backup-info': a three-step explainer about the recovery phrase. */
export function BackupInfo() {
  const navigate = useNavigate();
  const [index, setIndex] = useState(0);
  const step = STEPS[index] ?? STEPS[0];
  const isLast = index === STEPS.length - 1;

  async function handleDone() {
    // Back to the phrase if the sign-up is still in progress in this tab, else to log in.
    const words = getSignupDraft()?.password ? await authService.getSignupWords().catch(() => null) : null;
    if (words) await navigate({ to: '/signup/$step', params: { step: 'backup-phrase' } });
    else await navigate({ to: '/login' });
  }

  return (
    <AuthLayout title="About your recovery phrase">
      <Stack gap="md">
        <Progress
          value={((index + 1) / STEPS.length) * 100}
          size="xs"
          aria-label={`Step ${index + 1} of ${STEPS.length}`}
        />
        <Text size="xs" c="dimmed">
          Step {index + 1} of {STEPS.length}
        </Text>
        <Title order={2} size="h4">
          {step.title}
        </Title>
        {step.body.map((paragraph) => (
          <Text key={paragraph} size="sm">
            {paragraph}
          </Text>
        ))}
        <Group justify="space-between" mt="sm">
          <Button variant="default" onClick={() => setIndex(index - 1)} disabled={index === 0}>
            Back
          </Button>
          {isLast ? (
            <Button onClick={handleDone}>Done</Button>
          ) : (
            <Button onClick={() => setIndex(index + 1)}>Next</Button>
          )}
        </Group>
      </Stack>
    </AuthLayout>
  );
}
