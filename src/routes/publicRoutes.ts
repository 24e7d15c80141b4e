/**
 * The public vault viewer (spec 001 section 2): /public/vaults/{status}/{vaultId}/assets, its
 * folders, the gallery and its folders, the Atomic NFTs, signed out or in, read-only. Anything else under /public
 * goes to /login. It sits under the root, not under the signed-in app shell.
 */
import { createRoute, lazyRouteComponent, redirect } from '@tanstack/react-router';
import { PublicShell } from '../features/public/PublicShell';
import { rootRoute } from './rootRoute';

/*
 * The viewer's pages load on demand: the signed-out projection verifies signatures on the main
 * thread (libsodium for the checks WebCrypto lacks), which the signed-in app keeps in its worker
 * and must not download up front.
 */
const PublicVaultLayout = lazyRouteComponent(() => import('../features/public/PublicVaultLayout'), 'PublicVaultLayout');
const PublicAssetsPage = lazyRouteComponent(() => import('../features/public/PublicFilesPage'), 'PublicAssetsPage');
const PublicGalleryPage = lazyRouteComponent(() => import('../features/public/PublicFilesPage'), 'PublicGalleryPage');
const PublicNftListPage = lazyRouteComponent(() => import('../features/nfts/PublicNftPages'), 'PublicNftListPage');
const PublicNftDetailPage = lazyRouteComponent(() => import('../features/nfts/PublicNftPages'), 'PublicNftDetailPage');
const PublicNftCollectionPage = lazyRouteComponent(() => import('../features/nfts/PublicNftPages'), 'PublicNftCollectionPage');

function toLogin(): never {
  throw redirect({ to: '/login', replace: true });
}

const PUBLIC_STATUSES = new Set(['active', 'archived', 'ARCHIVED']);

/** `?file={id}` opens a file's viewer (the file's Share link). */
function validateFileSearch(search: Record<string, unknown>): { file?: string } {
  return typeof search.file === 'string' && search.file ? { file: search.file } : {};
}

export const publicRoute = createRoute({ getParentRoute: () => rootRoute, path: 'public', component: PublicShell });
export const publicOtherRoute = createRoute({ getParentRoute: () => publicRoute, path: '$', beforeLoad: toLogin });
export const publicIndexRoute = createRoute({ getParentRoute: () => publicRoute, path: '/', beforeLoad: toLogin });

export const publicVaultRoute = createRoute({
  getParentRoute: () => publicRoute,
  path: 'vaults/$status/$vaultId',
  beforeLoad: ({ params }) => {
    if (!PUBLIC_STATUSES.has(params.status)) toLogin();
  },
  component: PublicVaultLayout,
});

export const publicAssetsRoute = createRoute({
  getParentRoute: () => publicVaultRoute,
  path: 'assets',
  validateSearch: validateFileSearch,
  component: PublicAssetsPage,
});
export const publicAssetsFolderRoute = createRoute({
  getParentRoute: () => publicVaultRoute,
  path: 'assets/folders/$folderId',
  validateSearch: validateFileSearch,
  component: PublicAssetsPage,
});
export const publicGalleryRoute = createRoute({
  getParentRoute: () => publicVaultRoute,
  path: 'gallery',
  validateSearch: validateFileSearch,
  component: PublicGalleryPage,
});
export const publicGalleryFolderRoute = createRoute({
  getParentRoute: () => publicVaultRoute,
  path: 'gallery/folders/$folderId',
  validateSearch: validateFileSearch,
  component: PublicGalleryPage,
});
/** Atomic NFTs (spec 001 line ~95, spec 002 section 2): the list, an NFT, a collection and an NFT in it. */
export const publicNftListRoute = createRoute({ getParentRoute: () => publicVaultRoute, path: 'nfts', component: PublicNftListPage });
export const publicNftDetailRoute = createRoute({ getParentRoute: () => publicVaultRoute, path: 'nfts/$nftId', component: PublicNftDetailPage });
export const publicNftCollectionRoute = createRoute({ getParentRoute: () => publicVaultRoute, path: 'nfts/collection/$collectionId', component: PublicNftCollectionPage });
export const publicNftCollectionItemRoute = createRoute({
  getParentRoute: () => publicVaultRoute,
  path: 'nfts/collection/$collectionId/$nftId',
  component: PublicNftDetailPage,
});
export const publicVaultOtherRoute = createRoute({ getParentRoute: () => publicVaultRoute, path: '$', beforeLoad: toLogin });

export const publicTree = publicRoute.addChildren([
  publicIndexRoute,
  publicOtherRoute,
  publicVaultRoute.addChildren([
    publicAssetsRoute,
    publicAssetsFolderRoute,
    publicGalleryRoute,
    publicGalleryFolderRoute,
    publicNftListRoute,
    publicNftDetailRoute,
    publicNftCollectionRoute,
    publicNftCollectionItemRoute,
    publicVaultOtherRoute,
  ]),
]);
