import { defineConfig, devices } from '@playwright/test';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CHROMIUM_FLAGS } from './tests/chromiumFlags';

// End-to-end tests drive Debian's Chromium (no browser download is possible here) against the
// production build served by the real server. Each run gets fresh data directories; the config is
// evaluated again in every worker, so the chosen directories travel in the environment.
process.env.E2E_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'cairn-e2e-'));
process.env.E2E_MAINTENANCE_DATA_DIR ??= mkdtempSync(join(tmpdir(), 'cairn-e2e-maint-'));
const PORT = Number(process.env.E2E_PORT ?? 18_080);
const MAINTENANCE_PORT = PORT + 1;

export const E2E = {
  baseURL: `http://localhost:${PORT}`,
  maintenanceURL: `http://localhost:${MAINTENANCE_PORT}`,
  dataDir: process.env.E2E_DATA_DIR,
};


function server(port: number, dataDir: string, extraEnv: Record<string, string> = {}) {
  return {
    command: 'node scripts/start.mjs',
    url: `http://localhost:${port}/api/health`,
    reuseExistingServer: false,
    timeout: 120_000,
    stdout: 'ignore' as const,
    stderr: 'pipe' as const,
    env: {
      PORT: String(port),
      DATA_DIR: dataDir,
      PUBLIC_URL: `http://localhost:${port}`,
      CAIRN_SKIP_BUILD: process.env.CAIRN_SKIP_BUILD ?? '1',
      AUTH_RATE_LIMIT: '1000',
      // SMS two-factor is offered only with an SMS provider: the tests read the codes from files.
      SMS_TO_FILES: '1',
      // One relay wallet for every run: a 4096-bit RSA key takes seconds to generate.
      ARWEAVE_WALLET: join(tmpdir(), 'cairn-e2e-arweave-wallet.json'),
      ...extraEnv,
    },
  };
}

export default defineConfig({
  testDir: 'tests/e2e',
  testMatch: '**/*.spec.ts',
  timeout: 90_000,
  expect: { timeout: 15_000 },
  fullyParallel: false,
  workers: 2,
  retries: 0,
  // E2E_OUTPUT: a separate results folder, so runs from several checkouts do not clear each other's.
  reporter: [['list'], ['json', { outputFile: `${process.env.E2E_OUTPUT ?? '.tmp'}/playwright.json` }]],
  outputDir: `${process.env.E2E_OUTPUT ?? '.tmp'}/test-results`,
  use: {
    baseURL: E2E.baseURL,
    // A failed test keeps its trace: actions, console and network. The trace's screencast and DOM
    // snapshots are left out: recorded for every test, they took about a third of the run's CPU
    // (Chromium's GPU process encoding frames), and a failure still leaves its screenshot and the
    // page's accessibility tree (error-context.md).
    trace: { mode: 'retain-on-failure', screenshots: false, snapshots: false },
    screenshot: 'only-on-failure',
    launchOptions: { executablePath: '/usr/bin/chromium', args: CHROMIUM_FLAGS },
  },
  projects: [
    // The desktop runs as someone whose system asks for reduced motion (the app then drops its
    // transitions), the phone with the default motion: both are lived with, and a run without
    // animations to wait for is quicker.
    { name: 'desktop', use: { ...devices['Desktop Chrome'], viewport: { width: 1280, height: 800 }, contextOptions: { reducedMotion: 'reduce' } } },
    {
      name: 'phone',
      use: { ...devices['Desktop Chrome'], viewport: { width: 375, height: 800 }, isMobile: false, hasTouch: true },
      // Dragging rows onto folders is a pointer interaction; on a phone the Move picker does it
      // (covered by vaults.spec.ts at this width). Resuming uploads is not about the layout, and
      // its spec runs a server of its own on fixed ports: one project runs it. The same goes for an
      // airdrop link's expiry, whose spec restarts a server of its own with the clock moved ahead.
      // The airdrop spec takes its 375 px screenshots itself, and its upload entries do not change
      // with the width; so do the import spec and the invitations spec (which also runs a server
      // of its own on fixed ports). Leaving a vault uses the member pages members.spec.ts runs here.
      // The manifest spec's gateway checks wait on mined blocks; its 375 px checks are inside it.
      // The restore-from-network spec runs two servers of its own on fixed ports and a gateway,
      // and visits its pages at 375 px itself. The deployment spec (nginx, two processes, S3) is
      // about the servers behind the page, not its layout.
      testIgnore: [
        'files.spec.ts',
        'uploadResume.spec.ts',
        'airdropExpiry.spec.ts',
        'airdrop.spec.ts',
        'collaboration.spec.ts',
        'importTx.spec.ts',
        'invitations.spec.ts',
        'leaveVault.spec.ts',
        'manifest.spec.ts',
        'restoreFromNetwork.spec.ts',
        'deployment.spec.ts',
        // The vault-limit prompt runs a server of its own with a PLANS_FILE; it takes its 375 px screenshots itself.
        'planLimits.spec.ts',
        // The pricing page runs a server of its own with a PLANS_FILE; it takes its 375 px screenshots itself.
        'pricing.spec.ts',
        // The checkout runs a server of its own (ports 18816-18817) with a PLANS_FILE; it takes its 375 px screenshots itself.
        'checkout.spec.ts',
        // The money journey runs a server of its own (ports 18826-18827) with a PLANS_FILE; it takes its 375 px screenshots itself.
        'moneyJourney.spec.ts',
        // The white-label spec visits its subdomain's pages at 375 px itself.
        'whiteLabel.spec.ts',
        // The referral spec takes its 375 px screenshots itself.
        'referrals.spec.ts',

        // Top-ups run a server of their own (ports 18836-18837) with a PLANS_FILE; they take their 375 px screenshots themselves.
        'topups.spec.ts',
        // The U token spec runs a server of its own (ports 18796-18799); it takes its 375 px screenshots itself.
        'token.spec.ts',
        // The claims spec runs a server of its own (ports 18846-18849) and a price source; it takes its 375 px screenshots itself.
        'claims.spec.ts',
        // The NFT spec waits on mined blocks; it takes its 375 px screenshots itself.
        'nfts.spec.ts',
        // The developers spec runs a server of its own (ports 18856-18857); it takes its 375 px screenshots itself.
        'developers.spec.ts',
        // Flows with nothing of their own at 375 px (no step differs from the desktop's): the
        // phone run repeated them click for click. The phone layout of the screens they pass
        // through (the shell, the vault room, its menus and the viewer) is driven by the specs
        // above that stay in this project; each run of these cost a CI minute (docs/decisions.md).
        'accounts.spec.ts',
        'forgedHistory.spec.ts',
        'manyFiles.spec.ts',
        'gridSelectAll.spec.ts',
        'links.spec.ts',
        'noteDraftLimit.spec.ts',
        'offline.spec.ts',
        'organisation.spec.ts',
        'phraseSignup.spec.ts',
        'publicThumbnails.spec.ts',
        'revokedDevice.spec.ts',
        'sessions.spec.ts',
        'sync.spec.ts',
        'thumbnails.spec.ts',
        'twoFactor.spec.ts',
        'uploadNotice.spec.ts',
        'viewer.spec.ts',
        'zipUpload.spec.ts',
        'zipUploadPrivate.spec.ts',
      ],
    },
  ],
  webServer: [
    server(PORT, process.env.E2E_DATA_DIR),
    server(MAINTENANCE_PORT, process.env.E2E_MAINTENANCE_DATA_DIR, { CAIRN_MAINTENANCE: '1' }),
  ],
});
