/**
 * The two-factor setup in progress, between the setup and verify steps. Module memory only:
 * the TOTP secret is never written to storage, and a reload restarts the setup.
 */
export interface TotpDraft {
  secret: string;
  otpauthUrl: string;
}

let totpDraft: TotpDraft | null = null;
let smsPhone: string | null = null;

export function getTotpDraft(): TotpDraft | null {
  return totpDraft;
}
export function setTotpDraft(next: TotpDraft | null): void {
  totpDraft = next;
}
export function getSmsPhone(): string | null {
  return smsPhone;
}
export function setSmsPhone(next: string | null): void {
  smsPhone = next;
}
