import { useDisclosure } from '@mantine/hooks';
import { useSession } from '../account/useSession';
import { DeleteAccountModal } from './DeleteAccountModal';
import { SettingsMenu } from './SettingsMenu';
import { SignedInDevices } from './SignedInDevices';
import { BACK_TO_ACCOUNT, SettingsPage } from './SettingsPage';
import { describeTwoFactor } from './twoFactorStatus';

/** /account/security. */
export function SecurityPage() {
  const { user } = useSession();
  const [isDeleteOpen, deleteModal] = useDisclosure(false);

  return (
    <SettingsPage title="Security and Privacy" back={BACK_TO_ACCOUNT}>
      <SettingsMenu
        label="Security"
        entries={[
          {
            label: 'Reveal recovery phrase',
            description: 'Show your 12 words after confirming your password',
            to: '/account/security/backup-phrase',
          },
          { label: 'Change password', to: '/account/security/change-password' },
          {
            label: 'Two-factor authentication',
            description: describeTwoFactor(user),
            to: '/account/security/two-factor-authentication',
          },
        ]}
      />
      <SignedInDevices />
      <SettingsMenu
        label="Danger zone"
        entries={[{ label: 'Delete account', color: 'red', onClick: deleteModal.open }]}
      />
      <DeleteAccountModal opened={isDeleteOpen} onClose={deleteModal.close} />
    </SettingsPage>
  );
}
