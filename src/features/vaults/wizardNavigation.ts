import { useNavigate } from '@tanstack/react-router';
import { useCallback } from 'react';
import type { WizardChoices, WizardStep } from '../../domain/vaultWizardRules';

const STEP_PATHS = {
  setup: '/create-vault/setup',
  storage: '/create-vault/storage',
  privacy: '/create-vault/privacy',
  metadata: '/create-vault',
} as const satisfies Record<WizardStep, string>;

/** Moves to a wizard step, carrying the choices made so far in the search params. */
export function useGoToWizardStep() {
  const navigate = useNavigate();
  return useCallback(
    (step: WizardStep, choices: WizardChoices, options: { replace?: boolean } = {}) => {
      const search = step === 'setup' ? {} : { storage: choices.storage, privacy: choices.privacy, from: choices.from };
      void navigate({ to: STEP_PATHS[step], search, replace: options.replace });
    },
    [navigate],
  );
}
