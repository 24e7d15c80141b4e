import { Navigate, useSearch } from '@tanstack/react-router';
import type { ReactNode } from 'react';
import type { MembershipResponse } from '../../protocol/members';
import { InvitationLayout, InvitationLoader } from './InvitationLayout';
import { InvitationNotFound } from './InvitationNotFound';
import { useMembership } from './useMembership';

/**
 * The part the invite and confirm pages share: the `membershipId` search parameter (none: back to
 * /), the membership loaded from the server (a loader meanwhile, 'not found' when it fails), then
 * `children` with it and a way to load it again after a change.
 */
export function MembershipGate({
  title,
  children,
}: {
  title: string;
  children: (membership: MembershipResponse, reload: () => void) => ReactNode;
}) {
  const { membershipId } = useSearch({ strict: false }) as { membershipId?: string };
  const load = useMembership(membershipId);
  if (!membershipId) return <Navigate to="/" replace />;
  if (load.state === 'failed') return <InvitationNotFound title={title} />;
  if (load.state === 'loading') {
    return (
      <InvitationLayout title={title}>
        <InvitationLoader label="Loading the invitation" />
      </InvitationLayout>
    );
  }
  return children(load.membership, load.reload);
}
