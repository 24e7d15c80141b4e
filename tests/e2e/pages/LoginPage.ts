import { expect, type Browser, type BrowserContext, type Page } from '@playwright/test';

/** Page model for /login and the signed-in avatar menu. */
export class LoginPage {
  constructor(private readonly page: Page) {}

  async open(): Promise<void> {
    await this.page.goto('/login');
    await expect(this.page.getByRole('heading', { name: 'Log in' })).toBeVisible();
  }

  async submit(email: string, password: string, keepSignedIn = false): Promise<void> {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    const keep = this.page.getByLabel('Keep me signed in');
    if (keepSignedIn) await keep.check();
    else await keep.uncheck();
    await this.page.getByRole('button', { name: 'Log in' }).click();
  }

  /** A user with no vaults lands on the first step of the vault wizard. */
  async expectSignedInWithoutVaults(): Promise<void> {
    await expect(this.page).toHaveURL(/\/create-vault\/setup$/, { timeout: 30_000 });
    await expect(this.page.getByText('What are you uploading?')).toBeVisible();
  }

  async logOut(): Promise<void> {
    await this.page.getByRole('button', { name: /^Account menu/ }).first().click();
    await this.page.getByRole('menuitem', { name: 'Log out' }).click();
    await expect(this.page).toHaveURL(/\/login/);
  }
}

/**
 * The same account on a second device (a fresh browser profile, the page's viewport), logged in
 * with its e-mail and password and opened on the vault `vaultName` from the vault list.
 */
export async function openVaultOnSecondDevice(browser: Browser, page: Page, email: string, password: string, vaultName: string): Promise<{ context: BrowserContext; page: Page }> {
  const context = await browser.newContext({ viewport: page.viewportSize() ?? undefined });
  const otherPage = await context.newPage();
  const login = new LoginPage(otherPage);
  await login.open();
  await login.submit(email, password);
  const vaultRow = otherPage.getByText(vaultName).filter({ visible: true }).first();
  await expect(vaultRow).toBeVisible({ timeout: 60_000 });
  await vaultRow.click();
  return { context, page: otherPage };
}
