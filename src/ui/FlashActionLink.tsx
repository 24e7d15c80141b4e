import { Anchor, Text } from '@mantine/core';
import { useEffect, useRef, useState } from 'react';

interface FlashActionLinkProps {
  /** The link text, e.g. 'Resend email'. */
  label: string;
  /** Shown instead of the link for `flashMs` after the action succeeds, e.g. 'Email sent!'. */
  doneLabel: string;
  onAction: () => Promise<void>;
  /** Spec 001 section 9: 'Code sent!' and 'Email sent!' last 1.5 s. */
  flashMs?: number;
  onError?: (error: unknown) => void;
}

/** An inline link that runs an action and briefly confirms it ('Resend email' → 'Email sent!'). */
export function FlashActionLink({ label, doneLabel, onAction, flashMs = 1_500, onError }: FlashActionLinkProps) {
  const [state, setState] = useState<'idle' | 'busy' | 'done'>('idle');
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);

  async function run() {
    setState('busy');
    try {
      await onAction();
      setState('done');
      timer.current = setTimeout(() => setState('idle'), flashMs);
    } catch (error) {
      setState('idle');
      onError?.(error);
    }
  }

  if (state === 'done') {
    return (
      <Text span inherit fw={600} role="status">
        {doneLabel}
      </Text>
    );
  }
  return (
    <Anchor
      component="button"
      type="button"
      inherit
      c="inherit"
      underline="always"
      fw={600}
      disabled={state === 'busy'}
      onClick={() => void run()}
    >
      {label}
    </Anchor>
  );
}
