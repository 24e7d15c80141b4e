import type { AccountUser } from '../../protocol/auth';

type TwoFactorFields = Pick<AccountUser, 'mfaType' | 'mfaDevice'>;

/** 'Off', or 'On' with the method and device, for the security menu and the two-factor page. */
export function describeTwoFactor(user: TwoFactorFields | null | undefined): string {
  const method = describeTwoFactorMethod(user);
  return method ? `On: ${method}` : 'Off';
}

/** The method and device ('Authenticator app (Pixel)', 'SMS to ••••0123'), or null when off. */
export function describeTwoFactorMethod(user: TwoFactorFields | null | undefined): string | null {
  if (!user?.mfaType) return null;
  if (user.mfaType === 'TOTP') return user.mfaDevice ? `Authenticator app (${user.mfaDevice})` : 'Authenticator app';
  return user.mfaDevice ? `SMS to ${user.mfaDevice}` : 'SMS';
}
