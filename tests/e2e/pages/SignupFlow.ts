import { expect, type Page } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { signUpAndVerify } from '../accountFixture';
import { waitForMailLink } from '../mailbox';

/** Page model for /signup through the e-mailed verification link. */
export class SignupFlow {
  constructor(private readonly page: Page) {}

  async fillForm(email: string, password: string): Promise<void> {
    await this.page.goto('/signup');
    await expect(this.page.getByRole('heading', { name: 'Sign up for Cairn' })).toBeVisible();
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await this.page.getByRole('checkbox').nth(0).check();
    await this.page.getByRole('checkbox').nth(1).check();
  }

  /** Signs up and returns the 12 words, read from the downloaded backup file. */
  async signUp(email: string, password: string): Promise<string[]> {
    await this.fillForm(email, password);
    await this.page.getByRole('button', { name: 'Next' }).click();
    const phrase = this.page.getByTestId('recovery-phrase');
    await expect(phrase).toBeVisible();
    const downloading = this.page.waitForEvent('download');
    await this.page.getByRole('button', { name: 'Download' }).click();
    const download = await downloading;
    const text = readFileSync((await download.path())!, 'utf8');
    const words = [...text.matchAll(/\d+\.\s*([a-z]+)/g)].map((m) => m[1]!);
    expect(words).toHaveLength(12);
    await this.page.getByRole('button', { name: 'Setup account' }).click();
    await expect(this.page.getByText('Final step – verify your email')).toBeVisible({ timeout: 30_000 });
    return words;
  }

  /**
   * A new, verified account, logged in through the login form (a user with no vaults lands on the
   * wizard). The app's own account code signs up in the test process (accountFixture.ts); specs
   * about signing up itself use createAccountThroughForms.
   */
  async createAccount(dataDir: string, email: string, password: string): Promise<string[]> {
    const words = await this.createVerifiedAccount(dataDir, email, password);
    await this.logIn(email, password);
    return words;
  }

  /**
   * A new, verified account made by the app's account code in the test process (accountFixture.ts);
   * the page is left on the login form. Returns the 12 words.
   */
  async createVerifiedAccount(dataDir: string, email: string, password: string): Promise<string[]> {
    // The server this page talks to (some specs run servers of their own): the page's request
    // context resolves the same base URL the page's navigations do.
    const origin = new URL((await this.page.request.get('/api/health')).url()).origin;
    // The login page loads in the browser while the account is made here.
    const [words] = await Promise.all([
      signUpAndVerify(origin, dataDir, email, password),
      (async () => {
        await this.page.goto('/login');
        await expect(this.page.getByRole('heading', { name: 'Log in' })).toBeVisible();
      })(),
    ]);
    return words;
  }

  /** Signs up through the sign-up pages, verifies by the e-mailed link and logs in. */
  async createAccountThroughForms(dataDir: string, email: string, password: string): Promise<string[]> {
    const words = await this.signUp(email, password);
    await this.verifyByMail(dataDir, email);
    await this.logIn(email, password);
    return words;
  }

  private async logIn(email: string, password: string): Promise<void> {
    await this.page.getByLabel('Email').fill(email);
    await this.page.getByRole('textbox', { name: 'Password', exact: true }).fill(password);
    await this.page.getByRole('button', { name: 'Log in' }).click();
    await expect(this.page).toHaveURL(/\/create-vault\/setup$/, { timeout: 30_000 });
  }

  async verifyByMail(dataDir: string | readonly string[], email: string): Promise<void> {
    const link = await waitForMailLink(dataDir, email, '/login?uid=');
    await this.page.goto(link);
    await expect(
      this.page.getByText('Your email was successfully verified. Please enter your email and password to log in.'),
    ).toBeVisible();
  }
}
