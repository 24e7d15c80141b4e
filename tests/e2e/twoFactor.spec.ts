import { generate } from 'otplib';
import { LoginPage } from './pages/LoginPage';
import { SignupFlow } from './pages/SignupFlow';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

/** A TOTP code for the time step `stepsAhead` steps from now (a code is accepted only once). */
function totp(secret: string, stepsAhead = 0): Promise<string> {
  return generate({ secret, epoch: Math.floor(Date.now() / 1000) + stepsAhead * 30 });
}

test('a user turns on an authenticator app and needs its code to log in', async ({ page, shoot }, testInfo) => {
  const email = uniqueEmail(testInfo, 'totp');
  const signup = new SignupFlow(page);
  const login = new LoginPage(page);
  await signup.createVerifiedAccount(DATA_DIR, email, STRONG_PASSWORD);
  await login.submit(email, STRONG_PASSWORD, true);
  await login.expectSignedInWithoutVaults();

  await page.goto('/account/security/two-factor-authentication');
  await page.getByLabel('Authenticator app').check();
  await page.getByRole('button', { name: 'Set up' }).click();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill('a wrong password here');
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByText('Incorrect password')).toBeVisible();
  await page.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
  await page.getByRole('button', { name: 'Continue' }).click();
  await expect(page.getByAltText('QR code for your authenticator app')).toBeVisible();
  await shoot('totp-setup');
  const secret = (await page.getByLabel('Setup key').innerText()).replace(/\s+/g, '');
  expect(secret).toMatch(/^[A-Z2-7]{16,}$/);
  await page.getByRole('button', { name: 'Next' }).click();

  await page.getByLabel('6-digit code').fill('000000');
  await page.getByLabel('Device name').fill('Work phone');
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Wrong code. Please check and try again.')).toBeVisible();
  await page.getByLabel('6-digit code').fill(await totp(secret));
  await page.getByRole('button', { name: 'Turn on' }).click();
  await expect(page.getByText('Work phone').first()).toBeVisible();

  await login.logOut();
  await login.submit(email, STRONG_PASSWORD);
  await expect(page).toHaveURL(/\/verify$/);
  await expect(page.getByText('Enter the 6-digit code from: Work phone below')).toBeVisible();
  await shoot('verify');
  // The code is sent as soon as the sixth digit is typed.
  await page.getByLabel('Digit 1 of 6').click();
  await page.keyboard.type('111111');
  await expect(page.getByText('Wrong code. Please check and try again.')).toBeVisible();
  await page.getByLabel('Digit 1 of 6').click();
  await page.keyboard.type(await totp(secret, 1));
  await login.expectSignedInWithoutVaults();

  // Turning it off asks for confirmation; the request is signed by the account key.
  await page.goto('/account/security/two-factor-authentication');
  await page.getByRole('button', { name: 'Turn off' }).click();
  const dialog = page.getByRole('dialog', { name: 'Turn off two-factor authentication' });
  await dialog.getByRole('button', { name: 'Turn off' }).click();
  await expect(dialog).toBeHidden();
  await expect(page.getByText('Off', { exact: true })).toBeVisible();
  await login.logOut();
  await login.submit(email, STRONG_PASSWORD);
  await login.expectSignedInWithoutVaults();
});
