import { Box, Button, Indicator, NavLink, ScrollArea, Stack, Tooltip } from '@mantine/core';
import { Link, useLocation } from '@tanstack/react-router';
import { canCreateVault, type NavSection, visibleNavSections } from '../domain/navigationRules';
import { useUser } from '../features/account/useSession';
import { SideNavVaultLinks } from '../features/vaults/SideNavVaultLinks';
import { BrandLogo } from '../features/branding/BrandLogo';
import { IconPlus } from '../ui/icons';
import { NAV_ITEMS } from './navItems';
import { useServerConfig } from './serverConfigStore';

interface SideNavProps {
  /** Sections with unread items show a dot (notifications: any unread, SYNC_SPEC R31). */
  unread?: Partial<Record<NavSection, boolean>>;
}

/** The desktop side navigation, 250 px wide (spec 000 section 2, navigation chrome). */
export function SideNav({ unread = {} }: SideNavProps) {
  const user = useUser();
  const { pathname } = useLocation();
  const { isReadOnly } = useServerConfig();
  const canCreate = canCreateVault(isReadOnly);

  const newVault = canCreate ? (
    <Button component={Link} to="/create-vault/setup" leftSection={<IconPlus size={18} />} fullWidth aria-keyshortcuts="v">
      New vault
    </Button>
  ) : (
    <Tooltip label="Cairn is read-only at the moment">
      <Box>
        <Button leftSection={<IconPlus size={18} />} fullWidth disabled>
          New vault
        </Button>
      </Box>
    </Tooltip>
  );

  return (
    <Stack h="100%" gap={0}>
      <Box px="md" py="md">
        <Link to="/vaults/$status" params={{ status: 'active' }} aria-label="Cairn: your vaults" style={{ textDecoration: 'none' }}>
          <BrandLogo size={32} withWordmark />
        </Link>
      </Box>
      <Box px="md" pb="md">
        {newVault}
      </Box>
      <ScrollArea flex={1} px="xs" component="nav" aria-label="Main">
        {visibleNavSections(user.passwordless).map((section) => {
          const item = NAV_ITEMS[section];
          const Icon = item.icon;
          const icon = (
            <Indicator disabled={!unread[section]} size={8} offset={2} color="red">
              <Icon size={20} />
            </Indicator>
          );
          if (section === 'vaults') {
            return (
              <NavLink
                key={section}
                label={item.label}
                leftSection={icon}
                active={item.isActive(pathname)}
                defaultOpened
                childrenOffset={36}
              >
                <NavLink renderRoot={item.renderLink} label="All vaults" active={pathname === '/vaults/active'} />
                <SideNavVaultLinks />
              </NavLink>
            );
          }
          return (
            <NavLink
              key={section}
              renderRoot={item.renderLink}
              label={item.label}
              leftSection={icon}
              active={item.isActive(pathname)}
              aria-label={unread[section] ? `${item.label}, unread items` : undefined}
            />
          );
        })}
      </ScrollArea>
    </Stack>
  );
}
