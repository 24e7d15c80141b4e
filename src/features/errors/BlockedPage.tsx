import { Anchor, Button, Group, Text } from '@mantine/core';
import { COMMUNITY_URL, SOCIAL_URL, WEBSITE_URL } from '../../app/externalLinks';
import { ErrorPageLayout } from './ErrorPageLayout';

const LINKS = [
  { href: WEBSITE_URL, label: 'Website' },
  { href: COMMUNITY_URL, label: 'Community chat' },
  { href: SOCIAL_URL, label: 'Follow us' },
].filter((link): link is { href: string; label: string } => link.href !== null);

/** /418: the browser blocks IndexedDB, which Cairn needs to keep your vaults on this device. */
export function BlockedPage() {
  return (
    <ErrorPageLayout
      figure="418"
      title="Sorry, but we're blocked!"
      actions={
        <Button size="md" onClick={() => window.location.assign('/')}>
          Try again
        </Button>
      }
    >
      <Text inherit>
        Your browser's privacy settings are blocking an API that Cairn needs: IndexedDB, where your encrypted vaults are
        kept on this device.
      </Text>
      <Text inherit>
        Allow site data for this site in your browser settings, or open Cairn in a private window, then try again.
      </Text>
      {LINKS.length > 0 && (
        <Group justify="center" gap="lg">
          {LINKS.map((link) => (
            <Anchor key={link.label} href={link.href} target="_blank" rel="noopener noreferrer">
              {link.label}
            </Anchor>
          ))}
        </Group>
      )}
    </ErrorPageLayout>
  );
}
