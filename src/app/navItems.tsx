import { linkOptions } from '@tanstack/react-router';
import type { ComponentType } from 'react';
import type { NavSection } from '../domain/navigationRules';
import { type IconProps, IconBell, IconRewards, IconStorage, IconVaults } from '../ui/icons';

export interface NavItem {
  label: string;
  icon: ComponentType<IconProps>;
  link: ReturnType<typeof linkOptions>;
  /** Whether the current path belongs to this section. */
  isActive: (pathname: string) => boolean;
}

export const NAV_ITEMS: Record<NavSection, NavItem> = {
  vaults: {
    label: 'Vaults',
    icon: IconVaults,
    link: linkOptions({ to: '/vaults/$status', params: { status: 'active' } }),
    isActive: (path) => path.startsWith('/vaults') || path.startsWith('/create-vault'),
  },
  storage: {
    label: 'Storage',
    icon: IconStorage,
    link: linkOptions({ to: '/storage' }),
    isActive: (path) => path.startsWith('/storage'),
  },
  rewards: {
    label: 'Rewards',
    icon: IconRewards,
    link: linkOptions({ to: '/rewards' }),
    isActive: (path) => path.startsWith('/rewards'),
  },
  notifications: {
    label: 'Notifications',
    icon: IconBell,
    link: linkOptions({ to: '/notifications' }),
    isActive: (path) => path.startsWith('/notifications'),
  },
};
