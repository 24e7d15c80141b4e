import type { Page } from '@playwright/test';
import { deriveWalletKeys, toPublicWallet } from '../../src/crypto/keys';
import { entropyToPhrase, generatePhraseEntropy, isValidPhrase, phraseToSeed } from '../../src/crypto/phrase';
import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail, pastePhrase } from './fixtures';

/**
 * Issue 19 (docs/SYNC_SPEC.md R91): an account made from a recovery phrase the user already has,
 * with the phrase's keys and address, and one account per phrase on a server.
 */

const PHRASE_TAKEN_TEXT =
  'An account with this recovery phrase already exists on this server. Log in, or recover your account with the phrase.';

test('[R91] a phrase that already has an account here is refused under another e-mail, with a clear message', async ({ page, browser }, testInfo) => {
  const email = uniqueEmail(testInfo, 'phrase-owner');
  const words = await new SignupFlow(page).createAccountThroughForms(DATA_DIR, email, STRONG_PASSWORD);
  const address = await profileAddress(page);

  const context = await browser.newContext();
  try {
    const other = await context.newPage();
    const signup = new SignupFlow(other);
    await signup.fillForm(uniqueEmail(testInfo, 'phrase-again'), STRONG_PASSWORD);
    await other.getByRole('button', { name: 'I already have a recovery phrase' }).click();

    // A phrase whose checksum fails is refused on the device, with the recovery pages' text.
    const lastWords = ['zoo', 'abandon', 'ability', 'able'].map((last) => [...words.slice(0, 11), last].join(' '));
    await pastePhrase(other, lastWords.find((candidate) => !isValidPhrase(candidate))!);
    await other.getByRole('button', { name: 'Setup account' }).click();
    await expect(other.getByRole('alert')).toHaveText('Invalid recovery phrase.');

    await pastePhrase(other, words.join(' '));
    await other.getByRole('button', { name: 'Setup account' }).click();
    await expect(other.getByRole('alert')).toHaveText(PHRASE_TAKEN_TEXT);
    await other.screenshot({ path: `.tmp/screenshots/${testInfo.project.name}-phrase-taken.png`, fullPage: true });
    await expect(other.getByText('Final step – verify your email')).toHaveCount(0);
  } finally {
    await context.close();
  }
  // The first account is untouched: same address.
  await expect(page.getByText(address, { exact: true })).toBeVisible();
});

test('[R91] sign-up with an existing phrase: the account has that phrase\'s address, and the phrase never leaves the browser', async ({ page, requestLog, shoot }, testInfo) => {
  const phrase = entropyToPhrase(generatePhraseEntropy());
  const wallet = await toPublicWallet(await deriveWalletKeys(await phraseToSeed(phrase)));
  const email = uniqueEmail(testInfo, 'phrase-signup');
  const signup = new SignupFlow(page);

  await signup.fillForm(email, STRONG_PASSWORD);
  await page.getByRole('button', { name: 'I already have a recovery phrase' }).click();
  await expect(page.getByRole('button', { name: 'Setup account' })).toBeDisabled();
  await pastePhrase(page, phrase);
  await expect(page.getByRole('textbox', { name: 'Word 12', exact: true })).toHaveValue(phrase.split(' ')[11]!);
  await shoot('phrase-signup');
  await page.getByRole('button', { name: 'Setup account' }).click();
  await expect(page.getByText('Final step – verify your email')).toBeVisible({ timeout: 30_000 });

  await signup.verifyByMail(DATA_DIR, email);
  const login = new LoginPage(page);
  await login.submit(email, STRONG_PASSWORD);
  await login.expectSignedInWithoutVaults();
  expect(await profileAddress(page)).toBe(wallet.address);
  await expect(page.getByText(wallet.publicSigningKey, { exact: true })).toBeVisible();

  requestLog.expectNoneContains(phrase);
  requestLog.expectNoneContains(phrase.split(' ').slice(0, 3).join(' '));
  requestLog.expectNoneContains(STRONG_PASSWORD);
});

/** Opens Profile from the account menu and reads the Address shown there. */
async function profileAddress(page: Page): Promise<string> {
  await page.getByRole('button', { name: /^Account menu/ }).first().click();
  await page.getByRole('menuitem', { name: 'Profile' }).click();
  await expect(page.getByRole('button', { name: 'Copy address' })).toBeVisible();
  const address = (await page.getByText(/^[A-Za-z0-9_-]{43}$/).first().textContent()) ?? '';
  expect(address).toMatch(/^[A-Za-z0-9_-]{43}$/);
  return address;
}
