import { Button, Group, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { rejectPageTexts } from '../../domain/memberRules';
import type { VaultRecord } from '../../storage/vaultRecords';
import { InvitationLayout } from '../members/InvitationLayout';

/** The room's heading once the signed-in user's membership is REVOKED (removed, or left). */
export const ACCESS_ENDED_TITLE = 'Your access to this vault has ended.';
export const ACCESS_ENDED_TEXT =
  'Its files, notes and messages are no longer kept on this device. Contact the person who invited you for more information.';

/**
 * What the room shows instead of the vault once the membership ended (docs/SYNC_SPEC.md R56): the
 * device dropped the vault's data, and nothing of it (not even its name) is shown. A rejected
 * invitation says so with the reject page's own text (spec 001 section 2).
 */
export function VaultAccessEnded({ membershipStatus }: { membershipStatus: VaultRecord['membershipStatus'] }) {
  const { title, text } = membershipStatus === 'REJECTED' ? rejectPageTexts('REJECTED') : { title: ACCESS_ENDED_TITLE, text: ACCESS_ENDED_TEXT };
  return (
    <InvitationLayout title={title}>
      <Text>{text}</Text>
      <Group justify="flex-end">
        <Button renderRoot={(props) => <Link to="/" {...props} />}>View your vaults</Button>
      </Group>
    </InvitationLayout>
  );
}
