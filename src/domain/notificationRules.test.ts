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
});
