/**
 * What the sign-up steps share: the typed e-mail and password, kept in module memory only so the
 * route change between steps does not lose them. Never written to any storage: a reload forgets
 * them, and the backup-phrase step then sends the user back to /signup.
 */
export interface SignupDraft {
  email: string;
  /** Cleared once the account is registered. */
  password: string;
  acceptTerms: boolean;
  withdrawalRight: boolean;
  referrerId?: string;
}

let draft: SignupDraft | null = null;

export function getSignupDraft(): SignupDraft | null {
  return draft;
}

export function setSignupDraft(next: SignupDraft): void {
  draft = next;
}

/** After registration only the e-mail stays, for 'Resend email'. */
export function forgetSignupPassword(): void {
  if (draft) draft = { ...draft, password: '' };
}
