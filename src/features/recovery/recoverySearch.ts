/** The uid and code of the e-mailed recovery link, read from the page's search params. */
export interface RecoveryLink {
  uid: string;
  code: string;
}

export function recoveryLinkOf(search: Record<string, unknown>): RecoveryLink | null {
  const { uid, code } = search;
  const text = (value: unknown) => (typeof value === 'number' ? String(value) : value);
  const uidText = text(uid);
  const codeText = text(code);
  return typeof uidText === 'string' && uidText && typeof codeText === 'string' && codeText
    ? { uid: uidText, code: codeText }
    : null;
}
