/**
 * Members and sharing (spec 001 section 2, Signed-in sub-routes and Invitation screens): the
 * invite, confirm and reject pages. Invite to vault and manage access live in a vault room
 * (vaultRoomRoutes.ts).
 */
import { createRoute } from '@tanstack/react-router';
import { searchString } from '../app/plainSearch';
import { ConfirmPage } from '../features/members/ConfirmPage';
import { InvitePage } from '../features/members/InvitePage';
import { RejectInvitePage } from '../features/members/RejectInvitePage';
import type { RejectFrom } from '../domain/memberRules';
import { appRoute } from './appRoute';

declare module '@tanstack/history' {
  interface HistoryState {
    /** /reject-invite: why the invitation ended (spec 001 section 2). */
    from?: RejectFrom;
  }
}

const validateMembershipSearch = (search: Record<string, unknown>): { membershipId?: string } => ({
  membershipId: searchString(search, 'membershipId'),
});

export const inviteRoute = createRoute({ getParentRoute: () => appRoute, path: 'invite', validateSearch: validateMembershipSearch, component: InvitePage });
export const confirmRoute = createRoute({ getParentRoute: () => appRoute, path: 'confirm', validateSearch: validateMembershipSearch, component: ConfirmPage });
export const rejectInviteRoute = createRoute({ getParentRoute: () => appRoute, path: 'reject-invite', component: RejectInvitePage });
