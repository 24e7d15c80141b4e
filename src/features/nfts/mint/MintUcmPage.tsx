/** {mintType}/ucm: list the mint on the Universal Content Marketplace, or not (spec 002 sections 1, 2). */
import { Radio, Stack, Text } from '@mantine/core';
import { useMintAnswers } from './mintWizardState';
import { MintStepFrame, useMintRoute } from './MintStepFrame';

export function MintUcmPage() {
  const { vaultId, mintType, go } = useMintRoute();
  const [answers, update] = useMintAnswers(vaultId);
  return (
    <MintStepFrame
      title="Universal Content Marketplace"
      onBack={() => go(answers.udlChoice === 'custom' ? 'udl-custom' : 'udl')}
      onNext={() => go(mintType === 'collection' ? 'display' : 'file')}
    >
      <Text size="sm">Listing on the Universal Content Marketplace (UCM) lets others find and trade your Atomic NFTs on chain.</Text>
      <Radio.Group label="Marketplace" value={answers.ucm ? 'yes' : 'no'} onChange={(value) => update({ ucm: value === 'yes' })}>
        <Stack gap="sm" mt="xs">
          <Radio value="yes" label="List on the Universal Content Marketplace" />
          <Radio value="no" label="Do not list" />
        </Stack>
      </Radio.Group>
    </MintStepFrame>
  );
}
