/** The organisation pages, loaded on demand by src/routes/accountRoutes.tsx. */
export { OrganisationLayout } from './OrganisationLayout';
export { OrganisationDetailsPage } from './OrganisationDetailsPage';
export { OrganisationMembersPage } from './OrganisationMembersPage';
export { OrganisationInvitePage } from './OrganisationInvitePage';
