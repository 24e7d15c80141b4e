import { List, Progress, Stack, Text } from '@mantine/core';
import { useEffect, useState } from 'react';
import {
  PASSWORD_MANAGER_TIP,
  STRENGTH_LABELS,
  strengthLevel,
  strengthTips,
  type PasswordScore,
  type StrengthLevel,
} from '../domain/password';
import { preloadPasswordStrength, scorePassword } from '../domain/passwordStrength';

const LEVEL_COLOR: Record<StrengthLevel, string> = {
  weak: 'red',
  fair: 'orange',
  nearly: 'yellow',
  strong: 'teal',
};
const LEVEL_VALUE: Record<StrengthLevel, number> = { weak: 25, fair: 50, nearly: 75, strong: 100 };

/**
 * The adjusted zxcvbn score of `password`, or null while it is empty or being scored. The
 * estimator loads on first render of a password form, not with the app.
 */
export function usePasswordScore(password: string, userInputs: readonly string[] = []): PasswordScore | null {
  const [scored, setScored] = useState<{ password: string; score: PasswordScore } | null>(null);
  const inputsKey = userInputs.join('\n');

  useEffect(() => {
    void preloadPasswordStrength().catch(() => undefined);
  }, []);

  useEffect(() => {
    if (!password) return;
    let isCurrent = true;
    scorePassword(password, inputsKey ? inputsKey.split('\n') : [])
      .then((score) => {
        if (isCurrent) setScored({ password, score });
      })
      .catch(() => {
        // The dictionaries failed to load (offline): leave the score unknown, the form stays disabled.
      });
    return () => {
      isCurrent = false;
    };
  }, [password, inputsKey]);

  return password && scored?.password === password ? scored.score : null;
}

interface PasswordStrengthProps {
  password: string;
  score: PasswordScore | null;
  /** Hide the tips (e.g. when a shorter minimum applies and the 12-character tip would mislead). */
  hideTips?: boolean;
}

/** A strength meter with its label, the tips that would help, and the password-manager advice. */
export function PasswordStrength({ password, score, hideTips = false }: PasswordStrengthProps) {
  const level = score === null ? null : strengthLevel(score);
  const tips = score === null || hideTips ? [] : strengthTips(password, score);

  return (
    <Stack gap={6} aria-live="polite">
      {password && (
        <>
          <Progress
            value={level ? LEVEL_VALUE[level] : 0}
            color={level ? LEVEL_COLOR[level] : 'gray'}
            size="sm"
            aria-label="Password strength"
            transitionDuration={150}
          />
          <Text size="sm" fw={500}>
            Password strength: {level ? STRENGTH_LABELS[level] : '…'}
          </Text>
        </>
      )}
      {tips.length > 0 && (
        <List size="sm" spacing={2} c="dimmed">
          {tips.map((tip) => (
            <List.Item key={tip}>{tip}</List.Item>
          ))}
        </List>
      )}
      <Text size="xs" c="dimmed">
        {PASSWORD_MANAGER_TIP}
      </Text>
    </Stack>
  );
}
