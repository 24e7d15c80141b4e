import { useEffect, useState } from 'react';
import type { MembershipResponse } from '../../protocol/members';
import { fetchMembership } from '../../sync/memberActions';

export type MembershipLoad = { state: 'loading' } | { state: 'loaded'; membership: MembershipResponse } | { state: 'failed' };

/** GET /memberships/{id} for the invite and confirm pages; `reload` asks again after a change. */
export function useMembership(membershipId: string | undefined): MembershipLoad & { reload: () => void } {
  const [load, setLoad] = useState<MembershipLoad>({ state: 'loading' });
  const [attempt, setAttempt] = useState(0);
  useEffect(() => {
    if (!membershipId) return;
    let isCurrent = true;
    fetchMembership(membershipId).then(
      (membership) => isCurrent && setLoad({ state: 'loaded', membership }),
      (error: unknown) => {
        // Spec 001 section 8: a membership fetch failure is logged only.
        console.warn('The membership could not be loaded', error);
        if (isCurrent) setLoad({ state: 'failed' });
      },
    );
    return () => {
      isCurrent = false;
    };
  }, [membershipId, attempt]);
  return { ...load, reload: () => setAttempt((n) => n + 1) };
}
