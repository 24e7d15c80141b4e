import { Alert, Anchor } from '@mantine/core';

/** The optional announcement banner (config `sunsetBannerUrl`; off by default). */
export function SunsetBanner({ href }: { href: string }) {
  const isSafe = /^https?:\/\//.test(href) || href.startsWith('/');
  return (
    <Alert color="yellow" variant="light" role="note">
      The permanent storage service is being sunset.{' '}
      {isSafe && (
        <Anchor href={href} target="_blank" rel="noopener noreferrer" inherit c="inherit" underline="always" fw={600}>
          Read the announcement
        </Anchor>
      )}
    </Alert>
  );
}
