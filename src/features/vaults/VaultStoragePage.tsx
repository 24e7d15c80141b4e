import { useSearch } from '@tanstack/react-router';
import { nextStep, parseWizardChoices, type StorageChoice } from '../../domain/vaultWizardRules';
import { IconCloud, IconInfinity } from '../../ui/icons';
import { useBranding } from '../branding/brandingStore';
import { type Choice, ChoiceCards } from './ChoiceCards';
import { useGoToWizardStep } from './wizardNavigation';
import { WizardStep } from './WizardStep';

const STORAGE_CHOICES: Choice<StorageChoice>[] = [
  {
    value: 'permanent',
    title: 'Permanent storage',
    description: 'Paid once and kept on the permanent network for good. Files cannot be deleted, only hidden.',
    icon: IconInfinity,
  },
  {
    value: 'cloud',
    title: 'Cloud storage',
    description: 'Kept on Cairn’s servers. Files can be deleted for good whenever you want.',
    icon: IconCloud,
  },
];

/** /create-vault/storage: Step 1 of 3. */
export function VaultStoragePage() {
  const choices = parseWizardChoices(useSearch({ strict: false }));
  const goTo = useGoToWizardStep();
  const next = nextStep('storage', choices);
  // An organisation's subdomain lists cloud vaults only (R135), so it makes only those.
  const offered = useBranding() ? STORAGE_CHOICES.filter((choice) => choice.value === 'cloud') : STORAGE_CHOICES;
  return (
    <WizardStep
      stepLabel="Step 1 of 3"
      title="Where should your files be stored?"
      onBack={() => goTo('setup', choices)}
      onNext={next ? () => goTo(next, { ...choices, from: undefined }) : null}
      nextLabel="Next"
    >
      <ChoiceCards label="Storage" choices={offered} value={choices.storage} onChange={(storage) => goTo('storage', { ...choices, storage }, { replace: true })} />
    </WizardStep>
  );
}
