/**
 * Which recovery link's phrase was checked in this tab. The phrase itself lives in the crypto
 * worker (as its pending wallet); this module only remembers that the check passed, in memory,
 * so a reload on reset-password (which loses the worker) goes back to the phrase step.
 */
let checkedUid: string | null = null;

export function markPhraseChecked(uid: string): void {
  checkedUid = uid;
}

export function isPhraseChecked(uid: string): boolean {
  return checkedUid !== null && checkedUid === uid;
}

export function clearPhraseChecked(): void {
  checkedUid = null;
}
