import { useEffect } from 'react';
import { authService } from '../../account/authService';
import { useSession } from '../../account/useSession';
import { vaultTourSteps } from './vaultTourSteps';

/** Accounts that closed the tour in this page session: the flag may still read true while (or if) saving it fails. */
const closedThisSession = new Set<string>();

/** Settles the rendered page before measuring targets. */
const START_DELAY_MS = 400;

interface VaultTourProps {
  vault: { isPublic: boolean; isCloud: boolean };
  /** The file list has loaded, so every target is in place. */
  isReady: boolean;
}

/**
 * The onboarding tour on the assets route, for a user whose onboarding flag is on (spec 000
 * section 2). Skipping, Esc or Done sets the flag to false; a failure to save it is logged only
 * (spec 000 section 8). Leaving the page mid-tour does not count as closing it.
 */
export function VaultTour({ vault, isReady }: VaultTourProps) {
  const { user } = useSession();
  const userId = user?.id ?? null;
  const shouldRun = isReady && userId !== null && user?.onboarding === true && !closedThisSession.has(userId);
  const { isPublic, isCloud } = vault;

  useEffect(() => {
    if (!shouldRun || userId === null) return;
    let isCancelled = false;
    let stop: (() => void) | null = null;
    const timer = setTimeout(() => {
      void import('./startVaultTour').then(({ startVaultTour }) => {
        if (isCancelled) return;
        stop = startVaultTour(vaultTourSteps({ isPublic, isCloud }), () => {
          closedThisSession.add(userId);
          authService.updateAttributes({ onboarding: false }).catch((error: unknown) => {
            console.warn('Saving the onboarding attribute failed', error);
          });
        }).stop;
      });
    }, START_DELAY_MS);
    return () => {
      isCancelled = true;
      clearTimeout(timer);
      stop?.();
    };
  }, [shouldRun, userId, isPublic, isCloud]);

  return null;
}
