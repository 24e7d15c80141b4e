import { Button, Group, Notification } from '@mantine/core';
import { useRegisterSW } from 'virtual:pwa-register/react';

/**
 * `registerType: 'prompt'`: a new version waits until the user chooses to reload, so nothing
 * they are typing or uploading is cut off by an automatic refresh.
 */
export function UpdatePrompt() {
  const {
    needRefresh: [needRefresh, setNeedRefresh],
    updateServiceWorker,
  } = useRegisterSW();

  if (!needRefresh) return null;
  return (
    <Notification
      title="A new version of Cairn is ready"
      onClose={() => setNeedRefresh(false)}
      closeButtonProps={{ 'aria-label': 'Later' }}
      pos="fixed"
      bottom={88}
      right={16}
      maw={360}
      style={{ zIndex: 400 }}
      withBorder
    >
      <Group justify="flex-end" mt="xs">
        <Button size="xs" onClick={() => void updateServiceWorker(true)}>
          Reload
        </Button>
      </Group>
    </Notification>
  );
}
