import { expect, type ConsoleMessage, type Download, type Locator, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { getApiJson } from './pageApi';

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** The pending mark of a row: a badge from 668 px, a labelled dot on phones. */
export function pendingMark(scope: Locator, label: string | RegExp = /^(Waiting to sync|Syncing…)$/): Locator {
  return scope.getByText(label).or(scope.getByRole('img', { name: label })).filter({ visible: true });
}

/** Page model for the vault wizard and the vault room's files. */
export class VaultRoom {
  constructor(private readonly page: Page) {}

  /** The wizard's 'Customise your setup' path up to the metadata step, with the title typed (not yet created). */
  async fillVaultWizard(title: string, options: { storage: 'Cloud storage' | 'Permanent storage'; privacy: 'Private' | 'Public' }): Promise<void> {
    await this.page.goto('/create-vault/setup');
    await this.page.getByRole('button', { name: 'Customise your setup' }).or(this.page.getByRole('link', { name: 'Customise your setup' })).click();
    await this.page.getByRole('radio', { name: options.storage }).click();
    await this.page.getByRole('button', { name: 'Next' }).click();
    await this.page.getByRole('radio', { name: options.privacy, exact: true }).click();
    await this.page.getByRole('button', { name: 'Next' }).click();
    await this.page.getByRole('textbox', { name: 'Title' }).fill(title);
  }

  /**
   * Through the wizard's 'Customise your setup' path: storage, privacy, then metadata. A new
   * account's first vault opens with the onboarding tour: `tour: 'close'` (the default) skips it,
   * 'keep' leaves it open, 'none' is for an account that already closed it.
   */
  async createVault(
    title: string,
    options: { storage: 'Cloud storage' | 'Permanent storage'; privacy: 'Private' | 'Public'; tour?: 'close' | 'keep' | 'none'; terms?: string },
  ) {
    await this.fillVaultWizard(title, options);
    await this.page.getByRole('textbox', { name: 'Description' }).fill('Receipts and notes for the field season');
    if (options.terms) await this.page.getByRole('textbox', { name: 'Terms of access' }).fill(options.terms);
    await this.page.getByRole('button', { name: 'Create vault' }).click();
    await expect(this.page).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/, { timeout: 30_000 });
    if ((options.tour ?? 'close') === 'close') await this.closeTour();
  }

  /** The onboarding tour's popover (a dialog named after its step's title). */
  get tour() {
    return this.page.getByRole('dialog').filter({ has: this.page.getByRole('button', { name: 'Skip tour' }) });
  }

  /**
   * Waits for the tour's step `title` to be on screen and done appearing: driver.js takes keys and
   * Next or Back only then, a frame after the popover shows (it is aria-busy until then).
   */
  async expectTourStep(title: string, options?: { timeout?: number }) {
    const step = this.page.getByRole('dialog', { name: title });
    await expect(step).toBeVisible(options);
    await expect(step).not.toHaveAttribute('aria-busy', 'true');
    return step;
  }

  /** Waits for the onboarding tour, skips it and waits until the account's flag is saved. */
  async closeTour(): Promise<void> {
    await expect(this.tour).toBeVisible({ timeout: 15_000 });
    const saved = this.page.waitForResponse((r) => r.url().endsWith('/api/account/attributes') && r.request().method() === 'PATCH');
    await this.tour.getByRole('button', { name: 'Skip tour' }).click();
    expect((await saved).ok()).toBe(true);
    await expect(this.tour).toBeHidden();
  }

  /**
   * An account opening a vault is shown the tour exactly while its onboarding flag is on
   * (VaultTour.tsx): the account's own answer says whether it comes, so there is no waiting to
   * see whether it does. When it is due it must come, and is skipped.
   */
  async skipTourIfShown(): Promise<void> {
    const { user } = await getApiJson<{ user: { onboarding?: boolean } }>(this.page, '/api/account');
    if (user.onboarding === true) await this.closeTour();
  }

  /** Opens an entry of the vault's actions menu from inside the vault room (e.g. 'Manage access'). */
  async openVaultMenu(vaultName: string, entry: string): Promise<void> {
    await this.openMenu(`Actions for ${vaultName}`, entry);
  }

  /**
   * Opens the menu of the button named `menuName` and clicks its `entry`. The entry is looked for in
   * that menu only: a menu just used may still be fading out (the phone runs with motion).
   */
  private async openMenu(menuName: string, entry: string, options?: { exact: boolean }): Promise<void> {
    await this.page.getByRole('button', { name: menuName }).click();
    await this.page.getByRole('menu', { name: menuName }).getByRole('menuitem', { name: entry, ...options }).click();
  }

  async createFolder(name: string): Promise<void> {
    await this.page.getByRole('button', { name: 'Add an asset' }).click();
    await this.page.getByRole('menuitem', { name: /Create (sub )?folder/ }).click();
    await this.page.getByRole('textbox', { name: 'Folder name' }).fill(name);
    await this.page.getByRole('dialog').getByRole('button', { name: /Create/ }).click();
    await expect(this.row(name)).toBeVisible();
  }

  row(name: string) {
    return this.page.getByRole('row').filter({ has: this.page.getByText(name, { exact: true }) });
  }

  /** The file list toolbar's count: '45 items', '3 selected', 'All 45 selected'. */
  get summary() {
    return this.page.getByText(/^(\d[\d,]* items?|(All )?\d[\d,]* selected|Loading…)$/);
  }

  /** The pager's 'first–last of total' range of the rows on screen. */
  get range() {
    return this.pager.getByText(/^[\d,]+–[\d,]+ of [\d,]+$/);
  }

  get pager() {
    return this.page.getByRole('navigation', { name: 'File pages' });
  }

  /** 'First page', 'Previous page', 'Next page', 'Last page', or a page number (wide screens). */
  async goToPage(control: 'First page' | 'Previous page' | 'Next page' | 'Last page' | number): Promise<void> {
    await this.pager.getByRole('button', { name: String(control), exact: true }).click();
  }

  checkbox(name: string) {
    return this.page.getByRole('checkbox', { name: `Select ${name}`, exact: true });
  }

  /**
   * Clicks the folder's name: a link to the folder's own address (so it can be opened in a new
   * tab or copied), followed in the app without loading the page again.
   */
  async openFolder(name: string): Promise<void> {
    const link = this.row(name).getByRole('link', { name, exact: true });
    await expect(link).toHaveAttribute('href', /^\/vaults\/(active|inactive)\/[^/]+\/assets\/folders\/[^/]+$/);
    await this.page.evaluate(() => ((window as unknown as { cairnSamePage?: boolean }).cairnSamePage = true));
    await link.click();
    await expect(this.page.getByRole('heading', { level: 1 }).getByText(name, { exact: true })).toBeVisible();
    expect(await this.page.evaluate(() => (window as unknown as { cairnSamePage?: boolean }).cairnSamePage)).toBe(true);
  }

  /** Files from memory, or paths of files on disk (a picked File then reads from disk, as a user's does). */
  async pickFiles(files: UploadFile[] | string[]): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.getByRole('button', { name: 'Add an asset' }).click();
    await this.page.getByRole('menuitem', { name: 'Upload file' }).click();
    await (await chooser).setFiles(files);
  }

  /** Picks a whole folder from disk through 'Upload folder'. */
  async pickFolder(path: string): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.getByRole('button', { name: 'Add an asset' }).click();
    await this.page.getByRole('menuitem', { name: 'Upload folder' }).click();
    await (await chooser).setFiles(path);
  }

  /** Picks an archive through 'Upload zip & unpack'. */
  async pickZip(file: UploadFile): Promise<void> {
    const chooser = this.page.waitForEvent('filechooser');
    await this.page.getByRole('button', { name: 'Add an asset' }).click();
    await this.page.getByRole('menuitem', { name: 'Upload zip & unpack' }).click();
    await (await chooser).setFiles(file);
  }

  async confirmUpload(): Promise<void> {
    const dialog = this.page.getByRole('dialog', { name: /^Upload \d+ files?$/ });
    // The space check answers online; offline, the dialog says the upload waits.
    await expect(dialog.getByText(/^Available: |^You're offline: the upload starts/)).toBeVisible();
    // It closes once the files are queued on the device (IndexedDB, slow on a busy machine). If it
    // does not, the failure says what the page showed and warned of (an error snackbar lasts 3 s).
    const warnings: string[] = [];
    const onConsole = (message: ConsoleMessage) => void (['warning', 'error'].includes(message.type()) && warnings.push(message.text()));
    this.page.on('console', onConsole);
    try {
      await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
      await expect(dialog).toBeHidden({ timeout: 30_000 });
    } catch (error) {
      const shown = await dialog.innerText().catch(() => '(gone)');
      throw new Error(`${(error as Error).message}\nThe dialog showed: ${JSON.stringify(shown)}\nThe page warned: ${JSON.stringify(warnings)}`);
    } finally {
      this.page.off('console', onConsole);
    }
  }

  /** The upload progress box (bottom right, full width on a phone). */
  uploadBox() {
    return this.page.getByRole('status').filter({ has: this.page.getByRole('progressbar', { name: 'Upload progress' }) });
  }

  /** The box's overall percentage, or -1 while it is not shown. */
  async uploadPercent(): Promise<number> {
    const box = this.uploadBox();
    if ((await box.count()) === 0) return -1;
    return Number(/(\d+)%/.exec((await box.textContent()) ?? '')?.[1] ?? -1);
  }

  /** One file's line in the progress box. */
  uploadRow(name: string) {
    return this.uploadBox().getByTestId('upload-row').filter({ hasText: name });
  }

  /** The toolbar link on wide screens, the vault menu on phones. */
  async openHiddenFiles(): Promise<void> {
    const link = this.page.getByRole('link', { name: 'Hidden files' });
    if (await link.isVisible()) {
      await link.click();
    } else {
      await this.page.getByRole('button', { name: /^Actions for Expedition/ }).click();
      await this.page.getByRole('menuitem', { name: 'Hidden files' }).click();
    }
    await expect(this.page).toHaveURL(/\/revoked-files$/);
  }

  async rowAction(name: string, action: string): Promise<void> {
    await this.openMenu(`Actions for ${name}`, action, { exact: true });
  }

  /** Starts downloading `name` through its row menu and answers the browser's download. */
  async startDownload(name: string): Promise<Download> {
    const downloading = this.page.waitForEvent('download');
    await this.rowAction(name, 'Download');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(name);
    return download;
  }

  /** Downloads `name` through its row menu and answers the saved bytes. */
  async download(name: string): Promise<Buffer> {
    const download = await this.startDownload(name);
    return readFileSync((await download.path())!);
  }

  /** Whether a service worker controls the page, so downloads can stream through it. */
  async isServiceWorkerControlled(): Promise<boolean> {
    return this.page.evaluate(() => navigator.serviceWorker?.controller != null);
  }

  /**
   * Waits for the service worker to be active and reloads, so that it controls the page (the
   * first load never is: the service worker takes over from the next navigation).
   */
  async reloadUnderServiceWorker(): Promise<void> {
    await this.page.evaluate(async () => void (await navigator.serviceWorker.ready));
    await this.page.reload();
    expect(await this.isServiceWorkerControlled(), 'the page is controlled by the service worker').toBe(true);
  }

  /** The blob id of the latest version of the file `name`, read from the device's database. */
  async blobIdOf(name: string): Promise<string> {
    const blobId = await this.page.evaluate(
      (fileName) =>
        new Promise<string | null>((resolve, reject) => {
          const open = indexedDB.open('cairn');
          open.onerror = () => reject(open.error);
          open.onsuccess = () => {
            const db = open.result;
            const tx = db.transaction(['nodes', 'versions']);
            const nodes = tx.objectStore('nodes').getAll();
            const versions = tx.objectStore('versions').getAll();
            tx.oncomplete = () => {
              db.close();
              const node = (nodes.result as Array<{ name: string; kind: string; latestVersionId: string | null }>).find((n) => n.kind === 'file' && n.name === fileName);
              const version = (versions.result as Array<{ versionId: string; blobId: string }>).find((v) => v.versionId === node?.latestVersionId);
              resolve(version?.blobId ?? null);
            };
            tx.onerror = () => reject(tx.error);
          };
        }),
      name,
    );
    if (!blobId) throw new Error(`No version of ${name} in the local database`);
    return blobId;
  }
}
