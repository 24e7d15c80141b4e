import { Avatar, Menu, Text, UnstyledButton } from '@mantine/core';
import { useDisclosure } from '@mantine/hooks';
import { Link, useNavigate } from '@tanstack/react-router';
import { PASSWORDLESS_DISPLAY_NAME, visibleAvatarMenuEntries } from '../domain/navigationRules';
import { useSession, useUser } from '../features/account/useSession';
import { isOrganisationInvitee } from '../features/organisation/organisationRules';
import { useMyOrganisationValue } from '../features/organisation/useMyOrganisation';
import { SupportModal } from '../features/support/SupportModal';
import { IconLogout, IconUser } from '../ui/icons';
import { COMMUNITY_URL } from './externalLinks';

/** The avatar and its menu (spec 000 section 2): trimmed to Discord and Log out for passwordless users. */
export function AvatarMenu() {
  const user = useUser();
  const { logout } = useSession();
  const navigate = useNavigate();
  const [isSupportOpen, support] = useDisclosure(false);
  // Spec 001 section 2: an organisation's invitees use its plan and do not buy their own.
  const organisation = useMyOrganisationValue();
  const entries = new Set(visibleAvatarMenuEntries(user.passwordless));
  const photo = user.hasPhoto ? `/api/profile/photo/${encodeURIComponent(user.address)}` : null;
  // A passwordless account's e-mail is a reserved placeholder, not something to show.
  const label = user.passwordless ? PASSWORDLESS_DISPLAY_NAME : user.email;
  const displayName = user.name ?? label;

  async function logOut() {
    try {
      await logout();
    } finally {
      await navigate({ to: '/login', replace: true });
    }
  }

  return (
    <>
      <Menu position="bottom-end" width={280} shadow="md" withinPortal>
        <Menu.Target>
          <UnstyledButton aria-label={`Account menu for ${displayName}`} style={{ borderRadius: '50%' }}>
            <Avatar src={photo} alt="" radius="xl" size={36} color="cairn">
              <IconUser size={20} />
            </Avatar>
          </UnstyledButton>
        </Menu.Target>
        <Menu.Dropdown>
          <Menu.Label>
            <Text size="xs" truncate="end">
              {label}
            </Text>
          </Menu.Label>
          {entries.has('profile') && (
            <Menu.Item component={Link} to="/profile">
              Profile
            </Menu.Item>
          )}
          {entries.has('account') && (
            <Menu.Item component={Link} to="/account">
              Account
            </Menu.Item>
          )}
          {entries.has('plans') && !isOrganisationInvitee(organisation?.organisation) && (
            <Menu.Item component={Link} to="/account/plans-and-payments/pricing-plans">
              Plans and billing
            </Menu.Item>
          )}
          {entries.has('developers') && (
            <Menu.Item component={Link} to="/account/developers">
              Developers
            </Menu.Item>
          )}
          {entries.has('support') && <Menu.Item onClick={support.open}>Support</Menu.Item>}
          {entries.has('community') && COMMUNITY_URL && (
            <Menu.Item component="a" href={COMMUNITY_URL} target="_blank" rel="noopener noreferrer">
              Join our Discord
            </Menu.Item>
          )}
          <Menu.Divider />
          <Menu.Item leftSection={<IconLogout size={16} />} onClick={() => void logOut()}>
            Log out
          </Menu.Item>
        </Menu.Dropdown>
      </Menu>
      <SupportModal opened={isSupportOpen} onClose={support.close} />
    </>
  );
}
