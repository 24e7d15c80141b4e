import { Text, Textarea } from '@mantine/core';
import { descriptionRemaining } from '../../domain/vaultWizardRules';
import { VAULT_LIMITS } from '../../protocol/vaults';

interface DescriptionInputProps {
  value: string;
  onChange: (value: string) => void;
  minRows?: number;
  maxRows?: number;
}

/**
 * A vault description with its remaining-characters counter (spec 000 section 5: at most 300,
 * the over-limit negative count shown in red).
 */
export function DescriptionInput({ value, onChange, minRows = 3, maxRows = 8 }: DescriptionInputProps) {
  const remaining = descriptionRemaining(value);
  return (
    <Textarea
      label="Description"
      value={value}
      onChange={(event) => onChange(event.currentTarget.value)}
      autosize
      minRows={minRows}
      maxRows={maxRows}
      description={
        <Text span size="xs" c={remaining < 0 ? 'red' : 'dimmed'} aria-live="polite">
          {remaining} characters remaining
        </Text>
      }
      inputWrapperOrder={['label', 'input', 'description', 'error']}
      error={remaining < 0 ? `Description exceeds ${VAULT_LIMITS.DESCRIPTION_MAX} characters.` : null}
    />
  );
}
