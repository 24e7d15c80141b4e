import { ActionIcon, Anchor, AppShell as MantineAppShell, Avatar, Box, Button, Group, NavLink, Stack, Text, Tooltip, UnstyledButton } from '@mantine/core';
import { Link, Outlet } from '@tanstack/react-router';
import { NAV_ITEMS } from '../../app/navItems';
import { WEBSITE_URL } from '../../app/externalLinks';
import { NAV_SECTIONS } from '../../domain/navigationRules';
import { CairnLogo } from '../../ui/CairnLogo';
import { IconUser } from '../../ui/icons';
import { SHELL_LAYOUT } from '../../ui/shellLayout';

/** Explainer links of public routes, verbatim (spec 000 section 2, navigation chrome). */
export const PERMANENT_NETWORK_LINK_TEXT = 'What is the permanent network?';
export const PRODUCT_LINK_TEXT = 'What is Cairn?';
const PERMANENT_NETWORK_URL = 'https://arweave.org';

function ExplainerLinks() {
  return (
    <Stack gap={6}>
      <Anchor href={PERMANENT_NETWORK_URL} target="_blank" rel="noopener noreferrer" size="sm">
        {PERMANENT_NETWORK_LINK_TEXT}
      </Anchor>
      {/* Without a configured website the sign-up page is what says what Cairn is. */}
      {WEBSITE_URL ? (
        <Anchor href={WEBSITE_URL} target="_blank" rel="noopener noreferrer" size="sm">
          {PRODUCT_LINK_TEXT}
        </Anchor>
      ) : (
        <Anchor component={Link} to="/signup" size="sm">
          {PRODUCT_LINK_TEXT}
        </Anchor>
      )}
    </Stack>
  );
}

/** The phone's bottom bar (below 668 px) with every item shown and disabled, like the side navigation. */
function DisabledBottomNav() {
  return (
    <Group component="nav" aria-label="Main" h="100%" grow gap={0} px={4} wrap="nowrap">
      {NAV_SECTIONS.map((section) => {
        const item = NAV_ITEMS[section];
        const Icon = item.icon;
        return (
          <UnstyledButton
            key={section}
            disabled
            h="100%"
            display="flex"
            style={{ flexDirection: 'column', alignItems: 'center', justifyContent: 'center', gap: 2, color: 'var(--mantine-color-dimmed)', opacity: 0.6, cursor: 'not-allowed' }}
          >
            <Icon size={22} />
            <Text size="xs" c="inherit">
              {item.label}
            </Text>
          </UnstyledButton>
        );
      })}
    </Group>
  );
}

/**
 * The chrome of public routes (spec 000 section 2): the side navigation's items (the bottom bar's
 * on phones) are shown but disabled, the two explainer links, a Sign up button and a disabled profile button where the
 * avatar would be. Signed-in users opening a public link get the same read-only chrome.
 */
export function PublicShell() {
  return (
    <MantineAppShell {...SHELL_LAYOUT}>
      <MantineAppShell.Header px="md">
        <Group h="100%" justify="space-between" wrap="nowrap">
          <Box hiddenFrom="xs">
            <CairnLogo size={30} withWordmark />
          </Box>
          <Box visibleFrom="xs" />
          <Group gap="sm" wrap="nowrap">
            <Button component={Link} to="/signup" size="sm">
              Sign up
            </Button>
            <Tooltip label="Sign up or log in to have a profile">
              <ActionIcon variant="subtle" color="gray" size={36} radius="xl" disabled aria-label="Profile">
                <Avatar radius="xl" size={36}>
                  <IconUser size={20} />
                </Avatar>
              </ActionIcon>
            </Tooltip>
          </Group>
        </Group>
      </MantineAppShell.Header>

      <MantineAppShell.Navbar visibleFrom="xs">
        <Stack h="100%" gap={0}>
          <Box px="md" py="md">
            <CairnLogo size={32} withWordmark />
          </Box>
          <Box component="nav" aria-label="Main" px="xs" flex={1}>
            {NAV_SECTIONS.map((section) => {
              const item = NAV_ITEMS[section];
              const Icon = item.icon;
              // Mantine marks a disabled NavLink with data-disabled only: the button itself must be disabled.
              return <NavLink key={section} renderRoot={(props) => <button type="button" {...props} disabled />} label={item.label} leftSection={<Icon size={20} />} disabled />;
            })}
          </Box>
          <Box px="md" pb="lg">
            <ExplainerLinks />
          </Box>
        </Stack>
      </MantineAppShell.Navbar>

      <MantineAppShell.Main>
        {/* On phones the bottom padding keeps the last lines clear of the floating add button. */}
        <Box px={{ base: 'md', xs: 'xl' }} pt={{ base: 'md', xs: 'xl' }} pb={{ base: 96, xs: 'xl' }}>
          <Box hiddenFrom="xs" mb="md">
            <ExplainerLinks />
          </Box>
          <Outlet />
        </Box>
      </MantineAppShell.Main>

      <MantineAppShell.Footer hiddenFrom="xs">
        <DisabledBottomNav />
      </MantineAppShell.Footer>
    </MantineAppShell>
  );
}
