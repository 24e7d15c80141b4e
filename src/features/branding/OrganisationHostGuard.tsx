import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { ORGANISATION_TEXTS } from '../../protocol/organisations';
import { authService } from '../account/authService';
import { useUser } from '../account/useSession';
import { useMyOrganisationValue } from '../organisation/useMyOrganisation';
import { useBranding } from './brandingStore';

/**
 * An organisation's subdomain is for its people (R135): someone signed in there who is not in
 * that organisation is told 'You are not allowed to access this organization.' (spec 001 section
 * 8) and signed out. It reads the answer the menus already asked for (useMyOrganisation); offline,
 * or while the server cannot answer, nothing happens. Airdrop (passwordless) identities belong to
 * no organisation: their link decides where they are. Rendered inside the signed-in shell.
 */
export function OrganisationHostGuard() {
  const branding = useBranding();
  const isPasswordless = useUser().passwordless;
  const mine = useMyOrganisationValue();
  useEffect(() => {
    if (!branding || isPasswordless || !mine || mine.organisation?.id === branding.id) return;
    notifications.show({ color: 'red', message: ORGANISATION_TEXTS.notAllowed, autoClose: 10_000 });
    void authService.logout();
  }, [branding, isPasswordless, mine]);
  return null;
}
