/** choose-type: a single Atomic NFT or a collection (spec 002 section 2). */
import { Radio, Stack, Text } from '@mantine/core';
import { useState } from 'react';
import { isMintType, type MintType } from '../../../domain/nftMintRules';
import { startMintWizard, useMintAnswers } from './mintWizardState';
import { MintStepFrame, useMintRoute } from './MintStepFrame';
import { useNavigate } from '@tanstack/react-router';

export function ChooseMintTypePage() {
  const { status, vaultId, go } = useMintRoute();
  const navigate = useNavigate();
  const [answers] = useMintAnswers(vaultId);
  const [mintType, setMintType] = useState<MintType | null>(answers.mintType);
  return (
    <MintStepFrame
      title="Mint NFT"
      onBack={() => go('list')}
      isNextDisabled={mintType === null}
      onNext={() => {
        if (!mintType) return;
        startMintWizard(vaultId, mintType);
        void navigate({ to: `/vaults/${status}/${vaultId}/nfts/mint/${mintType}/metadata` });
      }}
    >
      <Radio.Group label="What do you want to mint?" value={mintType ?? ''} onChange={(value) => setMintType(isMintType(value) ? value : null)}>
        <Stack gap="sm" mt="xs">
          <Radio value="single" label="Single Atomic NFT" description="One file becomes one Atomic NFT." />
          <Radio value="collection" label="NFT collection" description="Several files become Atomic NFTs in one collection." />
        </Stack>
      </Radio.Group>
      <Text size="sm" c="dimmed">
        Minting takes 5-15 minutes to confirm on chain.
      </Text>
    </MintStepFrame>
  );
}
