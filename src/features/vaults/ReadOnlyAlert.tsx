import { Alert } from '@mantine/core';

/** Shown where read-only mode disables vault creation. */
export function ReadOnlyAlert() {
  return (
    <Alert color="yellow" variant="light" role="status">
      Cairn is read-only at the moment, so new vaults cannot be set up. Please try again later.
    </Alert>
  );
}
