import { describe, expect, it } from 'vitest';
import { describeNotification } from './notificationRules';

const base = { objectId: 'membership1', vaultId: 'vault1', fromEmail: 'ann@example.com' };

describe('notifications (spec 000 sections 2-3)', () => {
  it('an invitation opens the invite page of its membership', () => {
    expect(describeNotification({ ...base, event: 'MEMBERSHIP_INVITE' }, undefined)).toEqual({
      text: 'ann@example.com invited you to a vault.',
      target: { to: 'invite', membershipId: 'membership1' },
    });
    expect(describeNotification({ ...base, event: 'MEMBERSHIP_INVITE_RESEND' }, undefined).target).toEqual({ to: 'invite', membershipId: 'membership1' });
  });
  it("an invitee's answer opens the inviter's member list, with the vault's name when known", () => {
    expect(describeNotification({ ...base, event: 'MEMBERSHIP_ACCEPT' }, 'Field archive')).toEqual({
      text: 'ann@example.com accepted your invitation to "Field archive".',
      target: { to: 'manageAccess', vaultId: 'vault1' },
    });
  });
  it('a revoke goes to the vault list; a role change opens the vault', () => {
    expect(describeNotification({ ...base, event: 'MEMBERSHIP_REVOKE' }, 'Field archive').target).toEqual({ to: 'vaults' });
    expect(describeNotification({ ...base, event: 'MEMBERSHIP_CHANGE_ACCESS', fromEmail: null }, undefined)).toEqual({
      text: 'Someone changed your role in a vault.',
      target: { to: 'vault', vaultId: 'vault1' },
    });
  });
  it('vault activity names the author and the object from this device, and counts a run (SYNC_SPEC R30)', () => {
    const upload = { objectId: 'file1', vaultId: 'vault1', fromEmail: 'ann@example.com', event: 'STACK_CREATE' } as const;
    expect(describeNotification(upload, 'Field archive', { authorName: 'Ann', objectName: 'report.pdf' })).toEqual({
      text: 'Ann uploaded "report.pdf" in "Field archive".',
      target: { to: 'vault', vaultId: 'vault1' },
    });
    expect(describeNotification({ ...upload, count: 500 }, 'Field archive').text).toBe('ann@example.com uploaded 500 files in "Field archive".');
    expect(describeNotification({ ...upload, event: 'FOLDER_CREATE' }, undefined).text).toBe('ann@example.com created a folder in a vault.');
  });
  it('a hidden file opens revoked files, a memo the chat, a vault event the vault list', () => {
    const base2 = { objectId: 'x', vaultId: 'vault1', fromEmail: null };
    expect(describeNotification({ ...base2, event: 'STACK_REVOKE' }, undefined).target).toEqual({ to: 'revokedFiles', vaultId: 'vault1' });
    expect(describeNotification({ ...base2, event: 'FOLDER_REVOKE' }, undefined).target).toEqual({ to: 'vault', vaultId: 'vault1' });
    expect(describeNotification({ ...base2, event: 'MEMO_CREATE' }, 'Team')).toEqual({ text: 'Someone posted a message in "Team".', target: { to: 'chat', vaultId: 'vault1' } });
    expect(describeNotification({ ...base2, event: 'ADD_REACTION' }, undefined).target).toEqual({ to: 'chat', vaultId: 'vault1' });
    expect(describeNotification({ ...base2, event: 'VAULT_ARCHIVE' }, 'Team')).toEqual({ text: 'Someone archived "Team".', target: { to: 'vaults' } });
  });
});
