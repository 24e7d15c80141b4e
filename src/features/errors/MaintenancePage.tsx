import { Button, Text } from '@mantine/core';
import { useNavigate } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { serverConfigStore, useServerConfig } from '../../app/serverConfigStore';
import { ErrorPageLayout } from './ErrorPageLayout';

/** /maintenance: shown while the server's maintenance flag is on; leaves once it is off. */
export function MaintenancePage() {
  const { isLoaded, isMaintenance, config } = useServerConfig();
  const navigate = useNavigate();
  const [isChecking, setChecking] = useState(false);

  useEffect(() => {
    // The flag is polled every 60 s; once it is off there is nothing to wait for here.
    if (isLoaded && config && !isMaintenance) void navigate({ to: '/vaults/$status', params: { status: 'active' }, replace: true });
  }, [isLoaded, config, isMaintenance, navigate]);

  async function checkAgain() {
    setChecking(true);
    await serverConfigStore.refresh();
    setChecking(false);
  }

  return (
    <ErrorPageLayout
      title="We'll be back soon!"
      actions={
        <Button size="md" variant="default" loading={isChecking} onClick={() => void checkAgain()}>
          Check again
        </Button>
      }
    >
      <Text inherit>
        Cairn is currently down for scheduled maintenance. Your data is safe; you can come back in a little while.
      </Text>
    </ErrorPageLayout>
  );
}
