import { ActionIcon, Flex, NativeSelect, TextInput } from '@mantine/core';
import { type InviteFormRow, inviteRowEmailError, ROLE_LABELS } from '../../domain/memberRules';
import type { MemberRole } from '../../protocol/vaults';
import { IconX } from '../../ui/icons';

/** Spec 001 section 5: the roles an invitation can give, in the spec's order (never REVOKED). */
const ROLE_OPTIONS = (['CONTRIBUTOR', 'VIEWER', 'OWNER'] as const).map((role) => ({ value: role, label: ROLE_LABELS[role] }));

interface InviteRowsProps {
  rows: InviteFormRow[];
  /** Errors from the last send, by row key. */
  errors: Record<string, string>;
  isDisabled: boolean;
  onChange: (key: string, change: Partial<Pick<InviteFormRow, 'email' | 'role'>>) => void;
  onRemove: (key: string) => void;
}

/** The e-mail and role rows of the invite form; on a phone the role goes under the e-mail. */
export function InviteRows({ rows, errors, isDisabled, onChange, onRemove }: InviteRowsProps) {
  return rows.map((row, index) => {
    const isTrailingBlank = index === rows.length - 1 && row.email === '' && rows.length > 1;
    return (
      <Flex key={row.key} gap="xs" direction={{ base: 'column', xs: 'row' }} align={{ base: 'stretch', xs: 'flex-start' }} data-testid="invite-row">
        <TextInput
          flex={1}
          type="email"
          label={`E-mail ${index + 1}`}
          placeholder="name@example.com"
          autoComplete="off"
          value={row.email}
          disabled={isDisabled}
          error={inviteRowEmailError(row) ?? errors[row.key]}
          onChange={(event) => onChange(row.key, { email: event.currentTarget.value })}
        />
        <Flex gap="xs" align="flex-end" mt={{ base: 0, xs: 0 }}>
          <NativeSelect
            w={{ base: '100%', xs: 160 }}
            flex={{ base: 1, xs: 'none' }}
            label={`Role ${index + 1}`}
            data={ROLE_OPTIONS}
            value={row.role}
            disabled={isDisabled}
            onChange={(event) => onChange(row.key, { role: event.currentTarget.value as MemberRole })}
          />
          <ActionIcon
            variant="subtle"
            color="gray"
            size={36}
            aria-label={`Remove row ${index + 1}`}
            disabled={isDisabled || rows.length === 1 || isTrailingBlank}
            onClick={() => onRemove(row.key)}
          >
            <IconX size={18} />
          </ActionIcon>
        </Flex>
      </Flex>
    );
  });
}
