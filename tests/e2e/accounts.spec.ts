import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { DATA_DIR, NEW_PASSWORD, STRONG_PASSWORD, expect, test, uniqueEmail, pastePhrase } from './fixtures';
import { waitForMailLink } from './mailbox';

test('a newcomer signs up, verifies, logs in, recovers with the phrase and logs in with the new password', async ({
  page,
  requestLog,
  shoot,
}, testInfo) => {
  const email = uniqueEmail(testInfo, 'newcomer');
  const signup = new SignupFlow(page);
  const login = new LoginPage(page);

  await signup.fillForm(email, STRONG_PASSWORD);
  await shoot('signup');
  const words = await signup.signUp(email, STRONG_PASSWORD);
  await shoot('account-created');

  // Not verified yet: the password is right but the account must be confirmed first.
  await login.open();
  await login.submit(email, STRONG_PASSWORD);
  await expect(page.getByText('Your email is not yet verified.')).toBeVisible();

  await signup.verifyByMail(DATA_DIR, email);
  await shoot('login-verified');

  await login.submit(email, 'not my password at all 12');
  await expect(page.getByText('Your login details are not recognised. Please check your email and password.')).toBeVisible();

  await login.submit(email, STRONG_PASSWORD);
  await login.expectSignedInWithoutVaults();
  await shoot('create-vault-setup');
  await login.logOut();

  // Recovery: e-mailed link, phrase, new password, signed in.
  await page.goto('/recover/recover');
  await page.getByLabel('Email').fill(email);
  await page.getByRole('button', { name: 'Send verification' }).click();
  await expect(page.getByText('Check your email for a verification link.')).toBeVisible();
  const link = await waitForMailLink(DATA_DIR, email, '/recover/backup-phrase');
  await page.goto(link);

  // A phrase of another account is refused before anything is sent.
  const otherPhrase = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';
  await pastePhrase(page, otherPhrase);
  await page.getByRole('button', { name: 'Next' }).click();
  await expect(page.getByText("Backup phrase doesn't match the account you are trying to reset.")).toBeVisible();

  await pastePhrase(page, words.join(' '));
  await expect(page.getByRole('textbox', { name: 'Word 12', exact: true })).toHaveValue(words[11]!);
  await shoot('recover-phrase');
  await page.getByRole('button', { name: 'Next' }).click();
  await page.getByLabel('New password').fill(NEW_PASSWORD);
  await page.getByRole('button', { name: 'Reset Password' }).click();
  await login.expectSignedInWithoutVaults();
  await login.logOut();

  await login.submit(email, STRONG_PASSWORD);
  await expect(page.getByText('Your login details are not recognised. Please check your email and password.')).toBeVisible();
  await login.submit(email, NEW_PASSWORD);
  await login.expectSignedInWithoutVaults();

  // Nothing secret ever left the browser.
  requestLog.expectNoneContains(STRONG_PASSWORD);
  requestLog.expectNoneContains(NEW_PASSWORD);
  requestLog.expectNoneContains(words.join(' '));
  requestLog.expectNoneContains(words.slice(0, 3).join(' '));
});
