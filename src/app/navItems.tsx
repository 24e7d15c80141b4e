import { Link } from '@tanstack/react-router';
import type { ComponentType, ReactNode } from 'react';
import type { NavSection } from '../domain/navigationRules';
import { type IconProps, IconBell, IconRewards, IconStorage, IconVaults } from '../ui/icons';

export interface NavItem {
  label: string;
  icon: ComponentType<IconProps>;
  /** Renders the item's router link with Mantine's props (`renderRoot`), so the route stays type-checked. */
  renderLink: (props: Record<string, unknown>) => ReactNode;
  /** Whether the current path belongs to this section. */
  isActive: (pathname: string) => boolean;
}

export const NAV_ITEMS: Record<NavSection, NavItem> = {
  vaults: {
    label: 'Vaults',
    icon: IconVaults,
    renderLink: (props) => <Link to="/vaults/$status" params={{ status: 'active' }} {...props} />,
    isActive: (path) => path.startsWith('/vaults') || path.startsWith('/create-vault'),
  },
  storage: {
    label: 'Storage',
    icon: IconStorage,
    renderLink: (props) => <Link to="/storage" {...props} />,
    isActive: (path) => path.startsWith('/storage'),
  },
  rewards: {
    label: 'Rewards',
    icon: IconRewards,
    renderLink: (props) => <Link to="/rewards" {...props} />,
    isActive: (path) => path.startsWith('/rewards'),
  },
  notifications: {
    label: 'Notifications',
    icon: IconBell,
    renderLink: (props) => <Link to="/notifications" {...props} />,
    isActive: (path) => path.startsWith('/notifications'),
  },
};
