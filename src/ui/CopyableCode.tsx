import { Button, Code, CopyButton, Group } from '@mantine/core';
import type { ComponentPropsWithoutRef } from 'react';

/**
 * A value to copy (an address, a key, a link): shown whole in a wrapping code block, with a Copy
 * button that says 'Copied!' for a moment; `codeProps` names the block for assistive tech and tests.
 */
export function CopyableCode({
  value,
  copyLabel,
  codeProps,
}: {
  value: string;
  /** The Copy button's accessible name; absent, it is 'Copy'. */
  copyLabel?: string;
  codeProps?: Pick<ComponentPropsWithoutRef<'pre'>, 'aria-label' | 'aria-labelledby'> & { 'data-testid'?: string };
}) {
  return (
    <Group gap="xs" wrap="nowrap" align="flex-start">
      <Code block {...codeProps} style={{ flex: 1, minWidth: 0, wordBreak: 'break-all', whiteSpace: 'pre-wrap' }}>
        {value}
      </Code>
      <CopyButton value={value} timeout={1_500}>
        {({ copied, copy }) => (
          <Button variant="default" size="xs" onClick={copy} {...(copyLabel ? { 'aria-label': copyLabel } : {})}>
            {copied ? 'Copied!' : 'Copy'}
          </Button>
        )}
      </CopyButton>
    </Group>
  );
}
