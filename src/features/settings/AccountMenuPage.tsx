import { PRIVACY_POLICY_URL, TERMS_OF_SERVICE_URL } from '../signup/legalLinks';
import { useMyOrganisationValue } from '../organisation/useMyOrganisation';
import { SettingsMenu } from './SettingsMenu';
import { SettingsPage } from './SettingsPage';

/**
 * /account. Plans and Payments is reached from the avatar menu (spec 002); Developers is listed
 * both here and there.
 */
export function AccountMenuPage() {
  const organisation = useMyOrganisationValue();
  return (
    <SettingsPage title="Account">
      <SettingsMenu
        label="Account settings"
        entries={[
          { label: 'Security and Privacy', description: 'Recovery phrase, password, two-factor authentication', to: '/account/security' },
          { label: 'Notifications', description: 'Email notifications', to: '/account/notifications' },
          { label: 'Display', description: 'Dark mode, light mode or auto', to: '/account/display' },
          { label: 'Offline files', description: 'Files and vaults kept on this device', to: '/account/offline' },
          // Spec 001 section 2: only when the server says so (the plan's feature, not a plain member).
          ...(organisation?.showMenu
            ? [{ label: 'Organisation', description: 'Name, address, logo, colours and people', to: '/account/organisation' }]
            : []),
          { label: 'Developers', description: 'API key, webhook and its delivery log', to: '/account/developers' },
        ]}
      />
      <SettingsMenu
        label="Legal"
        entries={[
          { label: 'Privacy policy', href: PRIVACY_POLICY_URL },
          { label: 'Terms of service', href: TERMS_OF_SERVICE_URL },
        ]}
      />
    </SettingsPage>
  );
}
