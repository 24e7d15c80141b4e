import { Button, Group, Modal, Text } from '@mantine/core';

/**
 * Spec 000 section 8: the members upgrade prompt. Cairn has no plans page yet (spec 002 comes in
 * a later issue), so Upgrade only closes the dialog; it points at the page once there is one.
 */
export function MemberLimitModal({ opened, onClose }: { opened: boolean; onClose: () => void }) {
  return (
    <Modal opened={opened} onClose={onClose} title="You've hit the member limit" centered>
      <Text size="sm" mb="lg">
        This vault has as many members as your plan allows. Upgrade your plan to invite more people.
      </Text>
      <Group justify="flex-end">
        <Button variant="default" onClick={onClose}>
          Cancel
        </Button>
        <Button onClick={onClose}>Upgrade</Button>
      </Group>
    </Modal>
  );
}
