/** {mintType}/udl: the UDL choice screen (spec 002 section 2). */
import { Radio, Stack, Text } from '@mantine/core';
import { stepAfterUdlChoice, UDL_CHOICE_LABELS, UDL_CHOICES, type UdlChoice } from '../../../domain/nftMintRules';
import { useMintAnswers } from './mintWizardState';
import { MintStepFrame, useMintRoute } from './MintStepFrame';

export function MintUdlChoicePage() {
  const { vaultId, mintType, go } = useMintRoute();
  const [answers, update] = useMintAnswers(vaultId);
  return (
    <MintStepFrame title="Universal Data License" onBack={() => go('metadata')} onNext={() => go(stepAfterUdlChoice(answers.udlChoice))}>
      <Text size="sm">
        The Universal Data License (UDL) sets what others may do with your NFT. By default the rights are to copy, display and make public. Not
        included: distribute, commercial use and derivative works.
      </Text>
      {mintType === 'collection' && (
        <Text size="sm" fw={500}>
          These settings apply to every Atomic NFT in the collection.
        </Text>
      )}
      <Radio.Group label="License settings" value={answers.udlChoice} onChange={(value) => update({ udlChoice: value as UdlChoice })}>
        <Stack gap="sm" mt="xs">
          {UDL_CHOICES.map((choice) => (
            <Radio key={choice} value={choice} label={UDL_CHOICE_LABELS[choice]} />
          ))}
        </Stack>
      </Radio.Group>
    </MintStepFrame>
  );
}
