/**
 * The vault room's onboarding tour (spec 000 section 2): 8 steps for private vaults, 8 for public
 * permanent vaults (with Mint Atomic NFTs), 7 for public cloud vaults. Pure data, no React: the
 * steps name their targets by `data-tour` value and VaultTour points at the first one on screen.
 */

export const TOUR_VAULT_KINDS = ['private', 'publicPermanent', 'publicCloud'] as const;
export type TourVaultKind = (typeof TOUR_VAULT_KINDS)[number];

/** `data-tour` values the vault room puts on the elements the tour points at. */
export const TOUR_TARGETS = {
  title: 'vault-title',
  storage: 'vault-storage',
  privacy: 'vault-privacy',
  add: 'add-asset',
  files: 'file-list',
  menu: 'vault-menu',
  hidden: 'hidden-files',
} as const;
export type TourTarget = (typeof TOUR_TARGETS)[keyof typeof TOUR_TARGETS];

export interface TourStep {
  id: string;
  /** The first of these found on screen is highlighted; none (or an empty list) centres the step. */
  targets: TourTarget[];
  title: string;
  text: string;
}

export function tourVaultKind(vault: { isPublic: boolean; isCloud: boolean }): TourVaultKind {
  if (!vault.isPublic) return 'private';
  return vault.isCloud ? 'publicCloud' : 'publicPermanent';
}

/** The steps, in order, for a vault of this kind and storage (a private vault may be either). */
export function vaultTourSteps(vault: { isPublic: boolean; isCloud: boolean }): TourStep[] {
  const kind = tourVaultKind(vault);
  const steps: (TourStep | null)[] = [
    {
      id: 'welcome',
      targets: [TOUR_TARGETS.title],
      title: 'Welcome to your vault',
      text: 'A quick look around. Use Next and Back or the arrow keys; Skip or Esc ends the tour.',
    },
    vault.isCloud
      ? {
          id: 'storage',
          targets: [TOUR_TARGETS.storage, TOUR_TARGETS.title],
          title: 'Cloud storage',
          text: 'Files live in cloud storage. Hidden files can be restored, or deleted for good.',
        }
      : {
          id: 'storage',
          targets: [TOUR_TARGETS.storage, TOUR_TARGETS.title],
          title: 'Permanent storage',
          text: 'Files are committed to the permanent network, which can take a while. Hiding a file takes it out of view; it stays on the network.',
        },
    kind === 'private'
      ? {
          id: 'privacy',
          targets: [TOUR_TARGETS.privacy, TOUR_TARGETS.title],
          title: 'Private and encrypted',
          text: 'Names and files are encrypted on this device before they leave it. Only the members of this vault can read them.',
        }
      : null,
    {
      id: 'add',
      targets: [TOUR_TARGETS.add],
      title: 'Add an asset',
      text:
        kind === 'private'
          ? 'Upload files, a whole folder or a .zip to unpack here, or create folders to keep things in order.'
          : 'Upload files, a whole folder or a .zip to unpack here, or create folders. Anyone with the link can see what you add.',
    },
    {
      id: 'files',
      targets: [TOUR_TARGETS.files],
      title: 'Your files',
      text: 'Open a file or folder by its name. Tick several to download, move or hide them together, or drag a row onto a folder.',
    },
    {
      id: 'menu',
      targets: [TOUR_TARGETS.menu],
      title: 'Vault menu',
      text: 'Vault info (ID, status, size), description and tags, and the gallery. Owners rename or deactivate the vault here.',
    },
    {
      id: 'hidden',
      targets: [TOUR_TARGETS.hidden, TOUR_TARGETS.menu],
      title: 'Hidden files',
      text: 'Files and folders you hide wait under Hidden files, where you can restore them.',
    },
    kind === 'publicPermanent'
      ? {
          id: 'nfts',
          targets: [],
          title: 'Mint Atomic NFTs',
          text: 'A file in a public permanent vault can become an Atomic NFT: the token and the file live together on the network. Minting arrives in a later version of Cairn.',
        }
      : null,
    {
      id: 'uploads',
      targets: [],
      title: 'Uploads keep going',
      text: 'A progress box shows how far your uploads are. Keep working meanwhile; cancel from the box, and retry any file that fails.',
    },
  ];
  return steps.filter((step): step is TourStep => step !== null);
}
