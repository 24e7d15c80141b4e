import { RouterProvider } from '@tanstack/react-router';
import { useEffect, useState } from 'react';
import { authService } from '../features/account/authService';
import { onServerAnswering } from '../sync';
import { AppErrorBoundary } from '../features/errors/AppErrorBoundary';
import { AppProviders } from './AppProviders';
import { createAppRouter } from './router';
import { serverConfigStore } from './serverConfigStore';
import { UpdatePrompt } from './UpdatePrompt';

interface AppProps {
  isIndexedDbAvailable: boolean;
}

export function App({ isIndexedDbAvailable }: AppProps) {
  const [router] = useState(() =>
    createAppRouter({ auth: authService, config: serverConfigStore, isIndexedDbAvailable }),
  );

  // Guards run on navigation; re-run them when the session ends (another tab logged out, the
  // session expired) or maintenance starts, so a protected page does not stay on screen.
  useEffect(() => {
    let status = authService.getSnapshot().status;
    let isMaintenance = serverConfigStore.getSnapshot().config?.maintenance ?? false;
    const unsubscribeAuth = authService.subscribe(() => {
      const next = authService.getSnapshot().status;
      if (next === 'signedOut' && status === 'signedIn') void router.invalidate();
      status = next;
    });
    const unsubscribeConfig = serverConfigStore.subscribe(() => {
      const next = serverConfigStore.getSnapshot().config?.maintenance ?? false;
      if (next && !isMaintenance) void router.invalidate();
      isMaintenance = next;
    });
    // An offline start opened the shell from the cache; once online, the server has the last word:
    // asked when the browser says it is online and again whenever a sync cycle gets through.
    const onOnline = () => void authService.revalidate();
    window.addEventListener('online', onOnline);
    const unsubscribeSync = onServerAnswering(onOnline);
    return () => {
      window.removeEventListener('online', onOnline);
      unsubscribeSync();
      unsubscribeAuth();
      unsubscribeConfig();
    };
  }, [router]);

  return (
    <AppProviders>
      <AppErrorBoundary>
        <RouterProvider router={router} />
      </AppErrorBoundary>
      {isIndexedDbAvailable && <UpdatePrompt />}
    </AppProviders>
  );
}
