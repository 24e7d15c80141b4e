import { Group, Indicator, Text, UnstyledButton } from '@mantine/core';
import { useLocation } from '@tanstack/react-router';
import { type NavSection, visibleNavSections } from '../domain/navigationRules';
import { useUser } from '../features/account/useSession';
import { NAV_ITEMS } from './navItems';

interface BottomNavProps {
  unread?: Partial<Record<NavSection, boolean>>;
}

/** The phone layout's bottom bar (below 668 px): Vaults, Storage, Rewards, Notifications. */
export function BottomNav({ unread = {} }: BottomNavProps) {
  const user = useUser();
  const { pathname } = useLocation();
  return (
    <Group component="nav" aria-label="Main" h="100%" grow gap={0} px={4} wrap="nowrap">
      {visibleNavSections(user.passwordless).map((section) => {
        const item = NAV_ITEMS[section];
        const Icon = item.icon;
        const isActive = item.isActive(pathname);
        return (
          <UnstyledButton
            key={section}
            renderRoot={item.renderLink}
            aria-current={isActive ? 'page' : undefined}
            aria-label={unread[section] ? `${item.label}, unread items` : undefined}
            h="100%"
            display="flex"
            style={{
              flexDirection: 'column',
              alignItems: 'center',
              justifyContent: 'center',
              gap: 2,
              color: isActive ? 'var(--mantine-primary-color-filled)' : 'var(--mantine-color-dimmed)',
            }}
          >
            <Indicator disabled={!unread[section]} size={8} offset={2} color="red">
              <Icon size={22} />
            </Indicator>
            <Text size="xs" fw={isActive ? 600 : 400} c="inherit">
              {item.label}
            </Text>
          </UnstyledButton>
        );
      })}
    </Group>
  );
}
