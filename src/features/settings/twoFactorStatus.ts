import type { AccountUser } from '../../protocol/auth';

/** 'Off', or 'On' with the method and device, for the security menu and the two-factor page. */
export function describeTwoFactor(user: Pick<AccountUser, 'mfaType' | 'mfaDevice'> | null | undefined): string {
  if (!user?.mfaType) return 'Off';
  const method = user.mfaType === 'TOTP' ? 'authenticator app' : 'SMS';
  return user.mfaDevice ? `On: ${method} (${user.mfaDevice})` : `On: ${method}`;
}
