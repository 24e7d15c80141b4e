import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';

export interface UploadFile {
  name: string;
  mimeType: string;
  buffer: Buffer;
}

/** Page model for the vault wizard and the vault room's files. */
export class VaultRoom {
  constructor(private readonly page: Page) {}

  /** Through the wizard's 'Customise your setup' path: storage, privacy, then metadata. */
  async createVault(title: string, options: { storage: 'Cloud storage' | 'Permanent storage'; privacy: 'Private' | 'Public' }) {
    await this.page.goto('/create-vault/setup');
    await this.page.getByRole('button', { name: 'Customise your setup' }).or(this.page.getByRole('link', { name: 'Customise your setup' })).click();
    await this.page.getByRole('radio', { name: options.storage }).click();
    await this.page.getByRole('button', { name: 'Next' }).click();
    await this.page.getByRole('radio', { name: options.privacy, exact: true }).click();
    await this.page.getByRole('button', { name: 'Next' }).click();
    await this.page.getByRole('textbox', { name: 'Title' }).fill(title);
    await this.page.getByRole('textbox', { name: 'Description' }).fill('Receipts and notes for the field season');
    await this.page.getByRole('button', { name: 'Create vault' }).click();
    await expect(this.page).toHaveURL(/\/vaults\/active\/[A-Za-z0-9_-]+\/assets$/, { timeout: 30_000 });
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

  async openFolder(name: string): Promise<void> {
    await this.row(name).getByText(name, { exact: true }).click();
    await expect(this.page.getByRole('heading', { level: 1 }).getByText(name, { exact: true })).toBeVisible();
  }

  async pickFiles(files: UploadFile[]): Promise<void> {
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

  async confirmUpload(): Promise<void> {
    const dialog = this.page.getByRole('dialog', { name: /^Upload \d+ files?$/ });
    await expect(dialog.getByText(/^Available: /)).toBeVisible();
    await dialog.getByRole('button', { name: 'Upload', exact: true }).click();
    await expect(dialog).toBeHidden();
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
    await this.page.getByRole('button', { name: `Actions for ${name}` }).click();
    await this.page.getByRole('menuitem', { name: action, exact: true }).click();
  }

  /** Downloads `name` through its row menu and answers the saved bytes. */
  async download(name: string): Promise<Buffer> {
    const downloading = this.page.waitForEvent('download');
    await this.rowAction(name, 'Download');
    const download = await downloading;
    expect(download.suggestedFilename()).toBe(name);
    return readFileSync((await download.path())!);
  }
}
