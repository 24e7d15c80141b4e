import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app/App';
import { serverConfigStore } from './app/serverConfigStore';
import { authService } from './features/account/authService';
import { brandingStore } from './features/branding/brandingStore';
import { shareNewVaultWithAdmins } from './features/organisation/organisationVaults';
import { registerAdminSharer } from './sync/adminShares';
import { probeIndexedDb } from './platform/probeIndexedDb';

const root = document.getElementById('root');
if (!root) throw new Error('index.html has no #root');

// Spec: the server's flags are read at start and every 60 s; an organisation's subdomain is branded (R135).
serverConfigStore.start();
void brandingStore.start();
// R129: the sync cycle shares vaults made offline with the organisation's admins through this.
registerAdminSharer(shareNewVaultWithAdmins);

const isIndexedDbAvailable = await probeIndexedDb();
// The session restore needs IndexedDB (the sealed wallet); without it the app shows /418.
if (isIndexedDbAvailable) void authService.restore();

createRoot(root).render(
  <StrictMode>
    <App isIndexedDbAvailable={isIndexedDbAvailable} />
  </StrictMode>,
);
