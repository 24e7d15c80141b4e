import { Button, Group, Modal, Stack, Text, Textarea } from '@mantine/core';
import { useState } from 'react';
import { sendErrorReport } from '../errors/sendErrorReport';

interface SupportModalProps {
  opened: boolean;
  onClose: () => void;
}

const MESSAGE_MAX = 5_000;

/** 'Support' in the avatar menu: a message to the operator through POST /api/support. */
export function SupportModal({ opened, onClose }: SupportModalProps) {
  const [message, setMessage] = useState('');
  const [state, setState] = useState<'idle' | 'sending' | 'sent' | 'failed'>('idle');

  function close() {
    onClose();
    if (state === 'sent') {
      setMessage('');
      setState('idle');
    }
  }

  async function send(event: React.FormEvent) {
    event.preventDefault();
    setState('sending');
    try {
      await sendErrorReport({ action: 'support', context: message.trim() });
      setState('sent');
    } catch {
      setState('failed');
    }
  }

  return (
    <Modal opened={opened} onClose={close} title="Support" centered>
      {state === 'sent' ? (
        <Stack>
          <Text>Sent! Thank you, your message is with the team that runs this Cairn.</Text>
          <Group justify="flex-end">
            <Button onClick={close}>Close</Button>
          </Group>
        </Stack>
      ) : (
        <form onSubmit={(event) => void send(event)}>
          <Stack>
            <Textarea
              label="How can we help?"
              description="Your browser name and the page you are on are sent with your message. Never include your password or recovery phrase."
              value={message}
              onChange={(event) => setMessage(event.currentTarget.value.slice(0, MESSAGE_MAX))}
              autosize
              minRows={4}
              maxRows={10}
              data-autofocus
            />
            {state === 'failed' && (
              <Text c="red" size="sm" role="alert">
                Something went wrong, please try again later.
              </Text>
            )}
            <Group justify="flex-end">
              <Button variant="default" onClick={close}>
                Cancel
              </Button>
              <Button type="submit" disabled={message.trim().length === 0} loading={state === 'sending'}>
                Send
              </Button>
            </Group>
          </Stack>
        </form>
      )}
    </Modal>
  );
}
