/**
 * Inside a vault (spec 000 section 2, route table): assets, folders, hidden files, the stack
 * viewer, the gallery, the chat, and the member pages (spec 001 section 2). Any other path inside a vault
 * room redirects to .../assets.
 */
import { createRoute, redirect } from '@tanstack/react-router';
import { searchString } from '../app/plainSearch';
import { GalleryPage } from '../features/files/gallery/GalleryPage';
import { RevokedFilesPage } from '../features/files/RevokedFilesPage';
import { StackViewerPage } from '../features/files/StackViewerPage';
import { VaultAssetsPage } from '../features/files/VaultAssetsPage';
import { VaultRoomLayout } from '../features/files/VaultRoomLayout';
import { InviteToVaultPage } from '../features/members/InviteToVaultPage';
import { CreateNotePage, EditNotePage } from '../features/notes/NoteEditorPage';
import { ManageAccessPage } from '../features/members/ManageAccessPage';
import { TimelinePage } from '../features/timeline/TimelinePage';
import { ChatPage } from '../features/chat/ChatPage';
import { VaultTransactionHistoryPage } from '../features/vaults/VaultTransactionHistoryPage';
import { NftCollectionPage, NftDetailPage, NftListPage } from '../features/nfts/MemberNftPages';
import { appRoute } from './appRoute';
import { nftMintTree } from './nftMintRoutes';

declare module '@tanstack/history' {
  interface HistoryState {
    /** .../assets/create-note: the folder the new note goes into (null: the vault root). */
    folderId?: string | null;
    /** .../timeline: open with the filter drawer open (the Files toolbar's 'Filter the timeline'). */
    openFilters?: boolean;
  }
}

export const vaultRoomRoute = createRoute({
  getParentRoute: () => appRoute,
  path: 'vaults/$status/$vaultId',
  component: VaultRoomLayout,
});

function redirectToAssets({ params }: { params: { status: string; vaultId: string } }): never {
  throw redirect({ to: '/vaults/$status/$vaultId/assets', params: { status: params.status, vaultId: params.vaultId }, replace: true });
}

export const vaultRoomIndexRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: '/', beforeLoad: redirectToAssets });
export const vaultRoomOtherRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: '$', beforeLoad: redirectToAssets });

export const vaultAssetsRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'assets', component: VaultAssetsPage });
export const vaultFolderRoute = createRoute({
  getParentRoute: () => vaultRoomRoute,
  path: 'assets/folders/$folderId',
  component: VaultAssetsPage,
});

export const revokedFilesRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'revoked-files', component: RevokedFilesPage });
export const revokedFolderRoute = createRoute({
  getParentRoute: () => vaultRoomRoute,
  path: 'revoked-files/folders/$folderId',
  component: RevokedFilesPage,
});

export const stackViewerRoute = createRoute({
  getParentRoute: () => vaultRoomRoute,
  path: 'stack/$stackId',
  /** resourceVersion is present for any version other than the latest. */
  validateSearch: (search: Record<string, unknown>): { resourceVersion?: string } => ({
    resourceVersion: searchString(search, 'resourceVersion'),
  }),
  component: StackViewerPage,
});

/** The fragment names the version shown (spec 000 route table). */
export const galleryRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'gallery', component: GalleryPage });
export const galleryFolderRoute = createRoute({
  getParentRoute: () => vaultRoomRoute,
  path: 'gallery/folders/$folderId',
  component: GalleryPage,
});

/** The activity timeline (spec 000 section 2; a DELETED vault goes to /vaults/active in VaultRoomLayout). */
export const timelineRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'timeline', component: TimelinePage });
/** Notes (spec 000 route table): a new note, and the editor of a saved one from any room view. */
export const createNoteRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'assets/create-note', component: CreateNotePage });
export const noteEditorRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: '$roomView/note/$noteId', component: EditNotePage });
/** Chat is for private vaults only: the page sends a public vault's .../chat to its assets. */
export const chatRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'chat', component: ChatPage });

/** Spec 001 section 2: OWNERs only (the page sends anyone else back to the vault). */
export const inviteToVaultRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'invite-to-vault', component: InviteToVaultPage });
/** Manage access for OWNERs, 'View members' for everyone else. */
export const manageAccessRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'manage-access', component: ManageAccessPage });

/** A permanent vault's history on the network (SYNC_SPEC R84), from the vault info drawer. */
export const vaultHistoryRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'history', component: VaultTransactionHistoryPage });

/** Atomic NFTs (spec 002 section 2): public permanent vaults only (the pages send others to assets). */
export const nftListRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'nfts', component: NftListPage });
export const nftDetailRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'nfts/$nftId', component: NftDetailPage });
export const nftCollectionRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'nfts/collection/$collectionId', component: NftCollectionPage });
export const nftCollectionItemRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'nfts/collection/$collectionId/$nftId', component: NftDetailPage });

export const vaultRoomTree = vaultRoomRoute.addChildren([
  vaultRoomIndexRoute,
  vaultAssetsRoute,
  vaultFolderRoute,
  revokedFilesRoute,
  revokedFolderRoute,
  stackViewerRoute,
  galleryRoute,
  galleryFolderRoute,
  chatRoute,
  inviteToVaultRoute,
  manageAccessRoute,
  timelineRoute,
  createNoteRoute,
  noteEditorRoute,
  vaultHistoryRoute,
  nftListRoute,
  nftDetailRoute,
  nftCollectionRoute,
  nftCollectionItemRoute,
  // The mint wizard (issue 23).
  nftMintTree,
  vaultRoomOtherRoute,
]);
