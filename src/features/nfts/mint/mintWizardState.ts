/**
 * The mint wizard's answers, kept across its steps and across a reload: one record per vault in
 * sessionStorage (the tab's own; nothing of it is secret beyond what the vault publishes when
 * minted). The picked files cannot be kept this way; they live in memory only and are picked
 * again after a reload.
 */
import { useCallback, useSyncExternalStore } from 'react';
import { DEFAULT_UDL_FORM, EMPTY_METADATA_FORM, type MetadataForm, type MintType, type UdlChoice, type UdlForm } from '../../../domain/nftMintRules';

export interface MintWizardAnswers {
  /** The type these answers were given for; choosing another type starts afresh. */
  mintType: MintType | null;
  metadata: MetadataForm;
  udlChoice: UdlChoice;
  udlForm: UdlForm;
  ucm: boolean;
}

export interface MintFiles {
  files: File[];
  thumbnail: File | null;
  banner: File | null;
}

export const INITIAL_ANSWERS: MintWizardAnswers = { mintType: null, metadata: EMPTY_METADATA_FORM, udlChoice: 'default', udlForm: DEFAULT_UDL_FORM, ucm: false };

const keyOf = (vaultId: string) => `cairn.nftMint.${vaultId}`;
const listeners = new Set<() => void>();
const cache = new Map<string, MintWizardAnswers>();
const filesByVault = new Map<string, MintFiles>();

function read(vaultId: string): MintWizardAnswers {
  const cached = cache.get(vaultId);
  if (cached) return cached;
  let answers = INITIAL_ANSWERS;
  try {
    const raw = sessionStorage.getItem(keyOf(vaultId));
    if (raw) answers = { ...INITIAL_ANSWERS, ...(JSON.parse(raw) as Partial<MintWizardAnswers>) };
  } catch {
    // Unreadable or unavailable storage: start afresh.
  }
  cache.set(vaultId, answers);
  return answers;
}

function write(vaultId: string, answers: MintWizardAnswers): void {
  cache.set(vaultId, answers);
  try {
    sessionStorage.setItem(keyOf(vaultId), JSON.stringify(answers));
  } catch {
    // Kept in memory only.
  }
  listeners.forEach((listener) => listener());
}

function subscribe(listener: () => void): () => void {
  listeners.add(listener);
  return () => listeners.delete(listener);
}

/** The answers of the vault's mint wizard and a setter that merges a change in. */
export function useMintAnswers(vaultId: string): [MintWizardAnswers, (change: Partial<MintWizardAnswers>) => void] {
  const answers = useSyncExternalStore(subscribe, () => read(vaultId));
  const update = useCallback((change: Partial<MintWizardAnswers>) => write(vaultId, { ...read(vaultId), ...change }), [vaultId]);
  return [answers, update];
}

/** The files picked for the vault's mint (memory only). */
export function useMintFiles(vaultId: string): [MintFiles, (change: Partial<MintFiles>) => void] {
  const files = useSyncExternalStore(subscribe, () => filesByVault.get(vaultId) ?? EMPTY_FILES);
  const update = useCallback(
    (change: Partial<MintFiles>) => {
      filesByVault.set(vaultId, { ...(filesByVault.get(vaultId) ?? EMPTY_FILES), ...change });
      listeners.forEach((listener) => listener());
    },
    [vaultId],
  );
  return [files, update];
}

const EMPTY_FILES: MintFiles = { files: [], thumbnail: null, banner: null };

/** Starts the answers for `mintType`: kept when they were given for it (Back to choose-type and on), fresh otherwise. */
export function startMintWizard(vaultId: string, mintType: MintType): void {
  if (read(vaultId).mintType === mintType) return;
  clearMintWizard(vaultId);
  write(vaultId, { ...INITIAL_ANSWERS, mintType });
}

/** A finished or abandoned mint starts the next one afresh. */
export function clearMintWizard(vaultId: string): void {
  cache.delete(vaultId);
  filesByVault.delete(vaultId);
  try {
    sessionStorage.removeItem(keyOf(vaultId));
  } catch {
    // Nothing kept.
  }
  listeners.forEach((listener) => listener());
}
