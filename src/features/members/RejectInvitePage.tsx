import { Button, Group, Text } from '@mantine/core';
import { useNavigate, useRouterState } from '@tanstack/react-router';
import { type RejectFrom, rejectPageTexts } from '../../domain/memberRules';
import { InvitationLayout } from './InvitationLayout';

/** /reject-invite (spec 001 section 2): router state may carry from=REVOKED or from=REJECTED. */
export function RejectInvitePage() {
  const navigate = useNavigate();
  const from = useRouterState({ select: (state) => state.location.state.from }) as RejectFrom | undefined;
  const { title, text } = rejectPageTexts(from);
  return (
    <InvitationLayout title={title}>
      <Text>{text}</Text>
      <Group justify="flex-end">
        <Button onClick={() => void navigate({ to: '/' })}>View your vaults</Button>
      </Group>
    </InvitationLayout>
  );
}
