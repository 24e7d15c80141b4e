import { notifications } from '@mantine/notifications';
import { useEffect } from 'react';
import { MyOrganisationResponse, ORGANISATION_TEXTS } from '../../protocol/organisations';
import { getApiClient } from '../../platform/apiClient';
import { authService } from '../account/authService';
import { useBranding } from './brandingStore';

/**
 * An organisation's subdomain is for its people (R135): someone signed in there who is not in
 * that organisation is told 'You are not allowed to access this organization.' (spec 001 section
 * 8) and signed out. Offline, or when the server cannot answer, nothing happens: the session was
 * already checked when it began.
 */
export function useOrganisationHostGuard(userId: string | null): void {
  const branding = useBranding();
  const organisationId = branding?.id ?? null;
  useEffect(() => {
    if (!userId || !organisationId) return;
    let isCurrent = true;
    void getApiClient()
      .get('/organisations', MyOrganisationResponse)
      .then(async ({ organisation }) => {
        if (!isCurrent || organisation?.id === organisationId) return;
        notifications.show({ color: 'red', message: ORGANISATION_TEXTS.notAllowed, autoClose: 10_000 });
        await authService.logout();
      })
      .catch(() => undefined);
    return () => {
      isCurrent = false;
    };
  }, [userId, organisationId]);
}
