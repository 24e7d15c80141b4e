import { Anchor, Badge, Code, Group, NativeSelect, Paper, Stack, Text } from '@mantine/core';
import { canResendInvite, canRevokeMember, MEMBER_STATUS_LABELS, ROLE_LABELS, roleChoicesFor } from '../../domain/memberRules';
import { keyFingerprint } from '../../crypto/fingerprint';
import type { Member } from '../../protocol/members';
import type { MemberRole, Role } from '../../protocol/vaults';
import type { MemberRecord } from '../../sync/memberActions';
import { FlashActionLink } from '../../ui/FlashActionLink';

/** What a member is called in the list: their profile name, else their e-mail. */
export function memberDisplayName(member: Pick<Member, 'profileName' | 'email'>): string {
  return member.profileName?.trim() || member.email || 'Airdrop member';
}

/** Spec 001 section 9: 'Resent!' lasts 1 s. */
const RESENT_FLASH_MS = 1_000;

interface MemberRowProps {
  member: MemberRecord;
  isMe: boolean;
  /** The caller is an OWNER who may change this member (not themselves, not in read-only mode). */
  isEditable: boolean;
  chosenRole: MemberRole | undefined;
  onChooseRole: (role: Role) => void;
  onResend: () => Promise<void>;
  onResendError: (error: unknown) => void;
  onRevoke: () => void;
}

function safetyNumber(member: MemberRecord): string {
  try {
    return keyFingerprint(member.publicSigningKey, member.publicEncryptionKey);
  } catch {
    return 'Unavailable';
  }
}

/** One member: name and e-mail, status, safety number, role (selector or text) and actions. */
export function MemberRow({ member, isMe, isEditable, chosenRole, onChooseRole, onResend, onResendError, onRevoke }: MemberRowProps) {
  const name = memberDisplayName(member);
  const isEnded = member.status === 'REVOKED' || member.status === 'REJECTED';
  const roleText = member.role === 'OWNER' ? 'Owner' : ROLE_LABELS[member.role];
  return (
    <Paper withBorder radius="md" p="md" data-testid="member-row" aria-label={name} component="li">
      <Group justify="space-between" align="flex-start" gap="sm">
        <Stack gap={4} miw={0} flex="1 1 240px">
          <Group gap={6} wrap="wrap">
            <Text fw={600} style={{ wordBreak: 'break-word' }}>
              {name}
            </Text>
            {isMe && (
              <Text span c="dimmed" size="sm">
                (you)
              </Text>
            )}
            {member.status !== 'ACCEPTED' && (
              <Badge variant="light" color={isEnded ? 'gray' : 'yellow'} size="sm">
                {MEMBER_STATUS_LABELS[member.status]}
              </Badge>
            )}
          </Group>
          {member.email && member.email !== name && (
            <Text size="sm" c="dimmed" style={{ wordBreak: 'break-all' }}>
              {member.email}
            </Text>
          )}
          <Text size="xs" c="dimmed">
            Safety number <Code fz="xs">{safetyNumber(member)}</Code>
          </Text>
          {isEditable && !isEnded && (
            <Group gap="md" mt={4}>
              {canResendInvite(member) && (
                <Text size="sm">
                  <FlashActionLink label="Resend invite" doneLabel="Resent!" flashMs={RESENT_FLASH_MS} onAction={onResend} onError={onResendError} />
                </Text>
              )}
              {canRevokeMember(member) && (
                <Anchor component="button" type="button" size="sm" c="red" fw={600} underline="always" onClick={onRevoke}>
                  {canResendInvite(member) ? 'Revoke invite' : 'Revoke access'}
                </Anchor>
              )}
            </Group>
          )}
        </Stack>
        {isEditable && !isEnded ? (
          <NativeSelect
            w={{ base: '100%', xs: 170 }}
            aria-label={`Role of ${name}`}
            data={roleChoicesFor(member).map((role) => ({ value: role, label: ROLE_LABELS[role] }))}
            value={chosenRole ?? member.role}
            onChange={(event) => onChooseRole(event.currentTarget.value as Role)}
          />
        ) : (
          <Text fw={500} aria-label={`Role of ${name}`}>
            {roleText}
          </Text>
        )}
      </Group>
    </Paper>
  );
}
