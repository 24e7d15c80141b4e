import { Anchor, Button, Group, Modal, ScrollArea, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { NOT_ENOUGH_STORAGE_MESSAGE } from '../../../sync/vaultActions';
import { TopUpModal } from '../../storage/TopUpModal';
import type { NotUploadedFile } from './unpackFailureStore';

interface NotUploadedModalProps {
  opened: boolean;
  uploaded: number;
  total: number;
  /** Every file that did not make it, by name, with why. */
  failures: readonly NotUploadedFile[];
  /** Some failure can be tried again (an entry that failed to unpack cannot). */
  canRetry: boolean;
  onClose: () => void;
  onRetry: () => void;
}

/** The retry modal of spec 000 section 8: counts of uploaded and total, the failed names, Retry. */
export function NotUploadedModal({ opened, uploaded, total, failures, canRetry, onClose, onRetry }: NotUploadedModalProps) {
  const [isTopUpOpen, setTopUpOpen] = useState(false);
  return (
    <>
      <TopUpModal opened={isTopUpOpen} onClose={() => setTopUpOpen(false)} />
      <Modal opened={opened} onClose={onClose} title="Some files were not uploaded" centered>
        <Stack>
          <Text size="sm">
            {uploaded} of {total} files were uploaded.
          </Text>
          <ScrollArea.Autosize mah={220} type="auto">
            <Stack gap="xs" component="ul" p={0} m={0} style={{ listStyle: 'none' }} aria-label="Files not uploaded">
              {failures.map((failure, index) => (
                <li key={index}>
                  <Text size="sm" fw={600} style={{ overflowWrap: 'anywhere' }}>
                    {failure.name}
                  </Text>
                  <Text size="xs" c="dimmed">
                    {failure.message === NOT_ENOUGH_STORAGE_MESSAGE ? <NotEnoughStorage onTopUp={() => setTopUpOpen(true)} /> : failure.message}
                  </Text>
                </li>
              ))}
            </Stack>
          </ScrollArea.Autosize>
          <Group justify="flex-end">
            <Button variant="default" onClick={onClose}>
              Close
            </Button>
            <Button onClick={onRetry} disabled={!canRetry}>
              Retry
            </Button>
          </Group>
        </Stack>
      </Modal>
    </>
  );
}

/** Spec 000 section 8's NOT_ENOUGH_STORAGE text, verbatim, with its 'top up' opening the top-up form (issue 21). */
export function NotEnoughStorage({ onTopUp }: { onTopUp: () => void }) {
  const [before, after] = NOT_ENOUGH_STORAGE_MESSAGE.split('top up');
  return (
    <>
        {before}
        <Anchor component="button" type="button" size="xs" onClick={onTopUp}>
          top up
        </Anchor>
        {after}
    </>
  );
}
