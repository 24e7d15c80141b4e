/**
 * {mintType}/file (spec 002 sections 4, 5, 8): the asset file (a collection's files, each NFT
 * named after its file), the name and storage checks, then the mint itself with its progress,
 * Cancel until 100, 'Finalising NFT collection...' at 100, and a snackbar either way.
 */
import { Alert, Anchor, Button, FileInput, List, Progress, Stack, Text } from '@mantine/core';
import { Link } from '@tanstack/react-router';
import { useEffect, useMemo, useRef, useState } from 'react';
import {
  chosenUdl,
  collectionMetadataOf,
  FINALISING_LABEL,
  fileStepState,
  metadataOf,
  NAME_TOO_LONG_MESSAGE,
  nameWithoutExtension,
  NFT_COLLECTION_MINTED_MESSAGE,
  NFT_MINTED_MESSAGE,
} from '../../../domain/nftMintRules';
import { MintCancelled, mintNfts, type MintProgress } from '../../../sync/nftMint';
import { getVaultUploadRoom } from '../../../sync/vaultActions';
import { showSnackbar } from '../../../ui/snackbar';
import { NotEnoughStorage } from '../../files/upload/NotUploadedModal';
import { TopUpModal } from '../../storage/TopUpModal';
import { clearMintWizard, useMintAnswers, useMintFiles } from './mintWizardState';
import { MintStepFrame, useMintRoute } from './MintStepFrame';

export function MintFilePage() {
  const { vaultId, mintType, go } = useMintRoute();
  const [answers] = useMintAnswers(vaultId);
  const [picked, updateFiles] = useMintFiles(vaultId);
  const [available, setAvailable] = useState<number | null>(null);
  const [isTopUpOpen, setTopUpOpen] = useState(false);
  const [progress, setProgress] = useState<MintProgress | null>(null);
  const abort = useRef<AbortController | null>(null);

  useEffect(() => {
    let isCurrent = true;
    getVaultUploadRoom(vaultId)
      .then((room) => isCurrent && setAvailable(room))
      // Offline or out of reach: the server checks the space when the blobs are announced.
      .catch(() => isCurrent && setAvailable(Number.MAX_SAFE_INTEGER));
    return () => {
      isCurrent = false;
    };
  }, [vaultId]);

  const isCollection = mintType === 'collection';
  const thumbnail = isCollection ? picked.thumbnail : null;
  const banner = isCollection ? picked.banner : null;
  const state = fileStepState({ mintType, files: picked.files, thumbnail, banner, storageAvailable: available });
  const { udl, isValid: isUdlValid } = chosenUdl(answers.udlChoice, answers.udlForm);
  const metadata = useMemo(() => metadataOf(answers.metadata), [answers.metadata]);

  async function mint() {
    if (!metadata || !isUdlValid) return;
    const controller = new AbortController();
    abort.current = controller;
    setProgress({ percent: 0, phase: 'uploading' });
    try {
      await mintNfts(
        {
          vaultId,
          assets: picked.files.map((file) => ({ file, metadata: isCollection ? metadataOf(answers.metadata, nameWithoutExtension(file.name))! : metadata })),
          udl,
          ucm: answers.ucm,
          collection: isCollection ? { metadata: collectionMetadataOf(answers.metadata)!, thumbnail, banner } : null,
        },
        { onProgress: setProgress, signal: controller.signal },
      );
      showSnackbar(isCollection ? NFT_COLLECTION_MINTED_MESSAGE : NFT_MINTED_MESSAGE);
      clearMintWizard(vaultId);
      go('list');
    } catch (error) {
      if (error instanceof MintCancelled) {
        setProgress(null);
        return;
      }
      showSnackbar(error instanceof Error ? error.message : String(error), 6000);
      go('list');
    }
  }

  const isMinting = progress !== null;
  return (
    <MintStepFrame
      title={isCollection ? 'Collection files' : 'NFT file'}
      onBack={() => go(isCollection ? 'display' : 'ucm')}
      onNext={() => void mint()}
      nextLabel="Mint"
      isNextDisabled={!state.canContinue || !metadata || !isUdlValid || isMinting}
      isBusy={isMinting}
    >
      {isCollection ? (
        <FileInput
          label="Files"
          description="Each file becomes an Atomic NFT named after the file"
          multiple
          clearable
          disabled={isMinting}
          value={picked.files}
          onChange={(files) => updateFiles({ files })}
        />
      ) : (
        <FileInput
          label="File"
          description="Recommended thumbnail size at least 300x300"
          clearable
          disabled={isMinting}
          value={picked.files[0] ?? null}
          onChange={(file) => updateFiles({ files: file ? [file] : [] })}
        />
      )}
      {state.tooLong.length > 0 && (
        <Alert color="red" role="alert">
          <Text size="sm">{NAME_TOO_LONG_MESSAGE}</Text>
          <List size="sm">
            {state.tooLong.map((name) => (
              <List.Item key={name}>{name}</List.Item>
            ))}
          </List>
        </Alert>
      )}
      {state.isOverStorage && (
        <Alert color="red" role="alert">
          <Text size="sm">
            <NotEnoughStorage onTopUp={() => setTopUpOpen(true)} />
          </Text>
          <Anchor component={Link} to="/account/plans-and-payments/pricing-plans" size="sm">
            Upgrade your plan
          </Anchor>
        </Alert>
      )}
      {isMinting && (
        <Stack gap={4} aria-live="polite">
          <Text size="sm">{progress.phase === 'finalising' ? FINALISING_LABEL : `Uploading... ${progress.percent}%`}</Text>
          <Progress value={progress.percent} aria-label="Minting progress" />
          {progress.phase === 'uploading' && (
            <Button variant="default" onClick={() => abort.current?.abort()} w="fit-content">
              Cancel
            </Button>
          )}
        </Stack>
      )}
      <TopUpModal opened={isTopUpOpen} onClose={() => setTopUpOpen(false)} storage="permanent" />
    </MintStepFrame>
  );
}
