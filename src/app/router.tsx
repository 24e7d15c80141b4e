/**
 * The route tree (code-based; the route files in src/routes mirror the spec's route tables:
 * spec 000 section 2 and spec 001 section 2).
 */
import { createRouter } from '@tanstack/react-router';
import { ErrorFallback } from '../features/errors/ErrorFallback';
import { accountRoute, changePasswordRoute, displayRoute, notificationSettingsRoute, offlineFilesRoute, phoneRoute, phoneVerifyRoute, plansAndPaymentsTree, profileRoute, revealPhraseRoute, securityRoute, totpRoute, totpVerifyRoute, twoFactorRoute } from '../routes/accountRoutes';
import { developersTree, organisationTree } from '../routes/accountRoutes';
import { appRoute, homeRoute } from '../routes/appRoute';
import { loginRoute, recoverRoute, recoverStepRoute, signupRoute, signupStepRoute, verifyRoute } from '../routes/authRoutes';
import { blockedRoute, maintenanceRoute, notFoundRoute } from '../routes/errorRoutes';
import { confirmRoute, inviteRoute, rejectInviteRoute } from '../routes/memberRoutes';
import { type RouterContext, rootRoute } from '../routes/rootRoute';
import { publicTree } from '../routes/publicRoutes';
import { notificationsRoute, referralRoute, rewardsRoute, searchResultsRoute, searchRoute, storageRoute } from '../routes/sectionRoutes';
import { vaultRoomTree } from '../routes/vaultRoomRoutes';
import { restoreVaultRoute, vaultListRoute, vaultMetadataStepRoute, vaultPrivacyStepRoute, vaultSetupRoute, vaultStorageStepRoute, vaultsRoute } from '../routes/vaultRoutes';
import { parsePlainSearch, stringifyPlainSearch } from './plainSearch';

export const routeTree = rootRoute.addChildren([
  loginRoute,
  verifyRoute,
  signupRoute,
  signupStepRoute,
  recoverRoute,
  recoverStepRoute,
  maintenanceRoute,
  notFoundRoute,
  blockedRoute,
  publicTree,
  appRoute.addChildren([
    homeRoute,
    vaultsRoute,
    vaultListRoute,
    vaultSetupRoute,
    vaultStorageStepRoute,
    vaultPrivacyStepRoute,
    vaultMetadataStepRoute,
    restoreVaultRoute,
    vaultRoomTree,
    profileRoute,
    accountRoute,
    securityRoute,
    revealPhraseRoute,
    changePasswordRoute,
    twoFactorRoute,
    totpRoute,
    totpVerifyRoute,
    phoneRoute,
    phoneVerifyRoute,
    displayRoute,
    offlineFilesRoute,
    notificationSettingsRoute,
    plansAndPaymentsTree,
    organisationTree,
    developersTree,
    storageRoute,
    rewardsRoute,
    referralRoute,
    notificationsRoute,
    searchRoute,
    searchResultsRoute,
    inviteRoute,
    confirmRoute,
    rejectInviteRoute,
  ]),
]);

export function createAppRouter(context: RouterContext) {
  return createRouter({
    routeTree,
    context,
    parseSearch: parsePlainSearch,
    stringifySearch: stringifyPlainSearch,
    // Unknown paths anywhere go to /404 (the root's not-found component redirects there).
    notFoundMode: 'root',
    defaultErrorComponent: ErrorFallback,
    defaultPreload: 'intent',
    scrollRestoration: true,
  });
}

export type AppRouter = ReturnType<typeof createAppRouter>;

declare module '@tanstack/react-router' {
  interface Register {
    router: AppRouter;
  }
}
