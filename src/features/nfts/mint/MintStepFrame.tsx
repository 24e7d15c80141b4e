/**
 * The frame of every mint wizard step: its title, content and the Back / Next buttons, with the
 * vault and mint type read from the route. Enter in a field does not submit: Next is a button the
 * keyboard reaches like any other.
 */
import { Button, Container, Group, Stack, Title } from '@mantine/core';
import { useNavigate, useParams } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import { isMintType, type MintType } from '../../../domain/nftMintRules';

export type MintStep = 'metadata' | 'udl' | 'udl-custom' | 'ucm' | 'display' | 'file';

export interface MintRoute {
  status: string;
  vaultId: string;
  mintType: MintType;
  /** Goes to another step of this mint ('choose-type' for the first screen, 'list' for the NFT list). */
  go: (step: MintStep | 'choose-type' | 'list') => void;
}

export function useMintRoute(): MintRoute {
  const params = useParams({ strict: false }) as { status?: string; vaultId?: string; mintType?: string };
  const navigate = useNavigate();
  const status = params.status ?? 'active';
  const vaultId = params.vaultId ?? '';
  const mintType: MintType = isMintType(params.mintType) ? params.mintType : 'collection';
  const go = (step: MintStep | 'choose-type' | 'list') => {
    const base = `/vaults/${status}/${vaultId}/nfts`;
    const to = step === 'list' ? base : step === 'choose-type' ? `${base}/mint/choose-type` : step === 'display' ? `${base}/mint/collection/display` : `${base}/mint/${mintType}/${step}`;
    void navigate({ to });
  };
  return { status, vaultId, mintType, go };
}

export function MintStepFrame({
  title,
  children,
  onBack,
  onNext,
  isNextDisabled = false,
  nextLabel = 'Next',
  isBusy = false,
}: {
  title: string;
  children: ReactNode;
  onBack: () => void;
  onNext: () => void;
  isNextDisabled?: boolean;
  nextLabel?: string;
  isBusy?: boolean;
}) {
  return (
    <Container size="sm" px="md" py="lg" w="100%">
      <Stack gap="md">
        <Title order={2}>{title}</Title>
        {children}
        <Group justify="space-between" wrap="nowrap">
          <Button variant="default" onClick={onBack} disabled={isBusy}>
            Back
          </Button>
          <Button onClick={onNext} disabled={isNextDisabled} loading={isBusy}>
            {nextLabel}
          </Button>
        </Group>
      </Stack>
    </Container>
  );
}
