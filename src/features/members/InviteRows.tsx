import { ActionIcon, Box, Flex, NativeSelect, TextInput } from '@mantine/core';
import { inviteRowEmailError, ROLE_LABELS } from '../../domain/memberRules';
import { IconX } from '../../ui/icons';

/** Spec 001 section 5: the roles an invitation to a vault can give, in the spec's order (never REVOKED). */
export const VAULT_ROLE_OPTIONS = (['CONTRIBUTOR', 'VIEWER', 'OWNER'] as const).map((role) => ({ value: role, label: ROLE_LABELS[role] }));

/** One row of an invite form: the vault's invitation, or the organisation's (R128). */
interface InviteRow<R extends string> {
  key: string;
  email: string;
  role: R;
}

interface InviteRowsProps<R extends string> {
  rows: InviteRow<R>[];
  /** The roles offered, in order. */
  roleOptions: readonly { value: R; label: string }[];
  /** Errors from the last send, by row key. */
  errors: Record<string, string>;
  isDisabled: boolean;
  onChange: (key: string, change: Partial<{ email: string; role: R }>) => void;
  onRemove: (key: string) => void;
}

/** The e-mail and role rows of an invite form; on a phone the role goes under the e-mail. */
export function InviteRows<R extends string>({ rows, roleOptions, errors, isDisabled, onChange, onRemove }: InviteRowsProps<R>) {
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
        <Flex gap="xs" align="flex-end">
          <NativeSelect
            w={{ base: '100%', xs: 160 }}
            flex={{ base: 1, xs: 'none' }}
            label={`Role ${index + 1}`}
            data={[...roleOptions]}
            value={row.role}
            disabled={isDisabled}
            // The select offers only `roleOptions`, so its value is one of them.
            onChange={(event) => onChange(row.key, { role: event.currentTarget.value as R })}
          />
          {/* The blank row that waits for the next e-mail has nothing to remove: a spacer keeps the columns. */}
          {rows.length === 1 || isTrailingBlank ? (
            <Box w={36} h={36} style={{ flexShrink: 0 }} />
          ) : (
            <ActionIcon variant="subtle" color="gray" size={36} aria-label={`Remove row ${index + 1}`} disabled={isDisabled} onClick={() => onRemove(row.key)}>
              <IconX size={18} />
            </ActionIcon>
          )}
        </Flex>
      </Flex>
    );
  });
}
