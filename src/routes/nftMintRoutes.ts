/**
 * The mint wizard (spec 002 section 2): /vaults/{status}/{vaultId}/nfts/mint/choose-type, then
 * {mintType}/metadata, udl, udl-custom, ucm, file, and collection/display.
 */
import { createRoute, redirect } from '@tanstack/react-router';
import { isMintType } from '../domain/nftMintRules';
import { ChooseMintTypePage } from '../features/nfts/mint/ChooseMintTypePage';
import { MintDisplayPage } from '../features/nfts/mint/MintDisplayPage';
import { MintFilePage } from '../features/nfts/mint/MintFilePage';
import { MintMetadataPage } from '../features/nfts/mint/MintMetadataPage';
import { MintUcmPage } from '../features/nfts/mint/MintUcmPage';
import { MintUdlChoicePage } from '../features/nfts/mint/MintUdlChoicePage';
import { MintUdlCustomPage } from '../features/nfts/mint/MintUdlCustomPage';
import { MintWizardLayout } from '../features/nfts/mint/MintWizardLayout';
import { vaultRoomRoute } from './vaultRoomRoutes';

export const nftMintRoute = createRoute({ getParentRoute: () => vaultRoomRoute, path: 'nfts/mint', component: MintWizardLayout });

export const nftMintChooseTypeRoute = createRoute({ getParentRoute: () => nftMintRoute, path: 'choose-type', component: ChooseMintTypePage });
export const nftMintDisplayRoute = createRoute({ getParentRoute: () => nftMintRoute, path: 'collection/display', component: MintDisplayPage });

/** {mintType} is single or collection; anything else starts the wizard over. */
const mintTypeRoute = createRoute({
  getParentRoute: () => nftMintRoute,
  path: '$mintType',
  beforeLoad: ({ params }: { params: { status: string; vaultId: string; mintType: string } }) => {
    if (!isMintType(params.mintType)) throw redirect({ to: `/vaults/${params.status}/${params.vaultId}/nfts/mint/choose-type`, replace: true });
  },
});
const step = (path: string, component: () => React.JSX.Element) => createRoute({ getParentRoute: () => mintTypeRoute, path, component });

export const nftMintTree = nftMintRoute.addChildren([
  nftMintChooseTypeRoute,
  nftMintDisplayRoute,
  mintTypeRoute.addChildren([
    step('metadata', MintMetadataPage),
    step('udl', MintUdlChoicePage),
    step('udl-custom', MintUdlCustomPage),
    step('ucm', MintUcmPage),
    step('file', MintFilePage),
  ]),
]);
