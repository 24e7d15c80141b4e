import { useSearch } from '@tanstack/react-router';
import { nextStep, parseWizardChoices, type PrivacyChoice } from '../../domain/vaultWizardRules';
import { IconLock, IconWorld } from '../../ui/icons';
import { type Choice, ChoiceCards } from './ChoiceCards';
import { useGoToWizardStep } from './wizardNavigation';
import { WizardStep } from './WizardStep';

const PRIVACY_CHOICES: Choice<PrivacyChoice>[] = [
  {
    value: 'private',
    title: 'Private',
    description: 'Encrypted on your device first: only you and the members you invite can read the files.',
    icon: IconLock,
  },
  {
    value: 'public',
    title: 'Public',
    description: 'Open to anyone with the link. Suited to NFTs, public archives and records meant to be shared.',
    icon: IconWorld,
  },
];

/** /create-vault/privacy: Step 2 of 3. */
export function VaultPrivacyPage() {
  const choices = parseWizardChoices(useSearch({ strict: false }));
  const goTo = useGoToWizardStep();
  const next = nextStep('privacy', choices);
  return (
    <WizardStep
      stepLabel="Step 2 of 3"
      title="Who can see this vault?"
      onBack={() => goTo('storage', choices)}
      onNext={next ? () => goTo(next, choices) : null}
      nextLabel="Next"
    >
      <ChoiceCards label="Privacy" choices={PRIVACY_CHOICES} value={choices.privacy} onChange={(privacy) => goTo('privacy', { ...choices, privacy }, { replace: true })} />
    </WizardStep>
  );
}
