/**
 * The vault creation wizard (spec 002 section 2 "Vault creation", section 5): steps, the choices
 * carried in search params, and the metadata form's limits.
 */
import { VAULT_LIMITS } from '../protocol/vaults';

export const WIZARD_STEPS = ['setup', 'storage', 'privacy', 'metadata'] as const;
export type WizardStep = (typeof WIZARD_STEPS)[number];

export type StorageChoice = 'permanent' | 'cloud';
export type PrivacyChoice = 'private' | 'public';

export interface WizardChoices {
  storage?: StorageChoice;
  privacy?: PrivacyChoice;
  /** 'setup' when the user came straight from /create-vault/setup ("Add metadata"). */
  from?: 'setup';
}

export function parseWizardChoices(search: Record<string, unknown>): WizardChoices {
  const storage = search.storage === 'permanent' || search.storage === 'cloud' ? search.storage : undefined;
  const privacy = search.privacy === 'private' || search.privacy === 'public' ? search.privacy : undefined;
  const from = search.from === 'setup' ? ('setup' as const) : undefined;
  return { storage, privacy, from };
}

/** The step before `step` in the current path (the short path skips storage and privacy). */
export function previousStep(step: WizardStep, choices: WizardChoices): WizardStep | null {
  if (step === 'metadata') return choices.from === 'setup' ? 'setup' : 'privacy';
  if (step === 'privacy') return 'storage';
  if (step === 'storage') return 'setup';
  return null;
}

/** The step after `step`, when the current one has its choice. */
export function nextStep(step: WizardStep, choices: WizardChoices): WizardStep | null {
  if (step === 'storage') return choices.storage ? 'privacy' : null;
  if (step === 'privacy') return choices.privacy ? 'metadata' : null;
  return null;
}

export const TITLE_TOO_LONG = 'Title exceeds 150 characters.';
export const TITLE_REQUIRED = 'Add a title for your vault.';

export function validateVaultTitle(title: string): string | null {
  if (title.trim() === '') return TITLE_REQUIRED;
  if (title.length > VAULT_LIMITS.TITLE_MAX) return TITLE_TOO_LONG;
  return null;
}

/** Characters left in the description; negative once over the limit (shown in red). */
export function descriptionRemaining(description: string): number {
  return VAULT_LIMITS.DESCRIPTION_MAX - description.length;
}
