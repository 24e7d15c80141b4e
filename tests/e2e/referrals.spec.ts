/**
 * Issue 22, referrals as a user meets them (spec 001 sections 2, 5 and 9; SYNC_SPEC R132-R134):
 * from Rewards, 'Refer a friend' opens the Referral Reward page ('100 MB per referral', 10 rewards
 * left); the link is copied ('Copied!'); two e-mails typed grow a third row; 'Invite now' sends
 * them and goes back with a snackbar. A friend signs up through the link and verifies their
 * e-mail: the referrer's permanent storage grows by 100 MB and one reward is used. Desktop only
 * (playwright.config.ts); its 375 px screenshots are taken here.
 */
import { SignupFlow } from './pages/SignupFlow';
import { DATA_DIR, STRONG_PASSWORD, expect, shootBothWidths, test, uniqueEmail } from './fixtures';

test('[R133][R134] a user invites friends with the referral link; a friend signs up through it and the referrer gets 100 MB more permanent storage', async ({ page, browser }, testInfo) => {
  test.setTimeout(180_000);
  await page.context().grantPermissions(['clipboard-read', 'clipboard-write']);
  const referrerEmail = uniqueEmail(testInfo, 'referrer');
  const friendEmail = uniqueEmail(testInfo, 'friend');
  await new SignupFlow(page).createAccount(DATA_DIR, referrerEmail, STRONG_PASSWORD);

  // The permanent storage card before: 100 MB on the default plan.
  await page.getByRole('link', { name: 'Storage', exact: true }).first().click();
  const permanentCard = page.getByRole('region', { name: 'Permanent storage' });
  await expect(permanentCard).toContainText('of 100 MB used');

  await page.getByRole('link', { name: 'Rewards', exact: true }).first().click();
  await page.getByRole('link', { name: 'Refer a friend' }).click();
  await expect(page.getByRole('heading', { name: 'Referral Reward', level: 1 })).toBeVisible();
  await expect(page.getByRole('heading', { name: '100 MB per referral' })).toBeVisible();
  await expect(page.getByTestId('referral-rewards-left')).toHaveText('10 of 10 rewards left');

  const link = (await page.getByLabel('Your referral link').innerText()).trim();
  expect(link).toMatch(/^http:\/\/localhost:\d+\/signup\/\?referrerId=[A-Za-z0-9_-]+$/);
  await page.getByRole('button', { name: 'Copy referral link' }).click();
  await expect(page.getByRole('button', { name: 'Copy referral link' })).toHaveText('Copied!');
  expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(link);

  // A new row appears once the last holds an e-mail.
  await expect(page.getByRole('textbox', { name: /^E-mail \d$/ })).toHaveCount(1);
  await page.getByRole('textbox', { name: 'E-mail 1' }).fill('first.friend@example.com');
  await page.getByRole('textbox', { name: 'E-mail 2' }).fill('second.friend');
  await expect(page.getByRole('textbox', { name: 'E-mail 3' })).toHaveCount(0);
  await expect(page.getByRole('button', { name: 'Invite now' })).toBeDisabled();
  await page.getByRole('textbox', { name: 'E-mail 2' }).fill('second.friend@example.com');
  await expect(page.getByRole('textbox', { name: 'E-mail 3' })).toBeVisible();
  await shootBothWidths(page, 'referral-reward');
  await page.getByRole('button', { name: 'Invite now' }).click();
  await expect(page.getByText('2 referral invites sent.')).toBeVisible();
  await expect(page.getByRole('heading', { name: 'Rewards', level: 1 })).toBeVisible();

  // A friend follows the link and signs up; the referral id travels with the form.
  const friend = await (await browser.newContext({ viewport: { width: 1280, height: 800 } })).newPage();
  await friend.goto(link);
  await expect(friend.getByRole('heading', { name: 'Sign up for Cairn' })).toBeVisible();
  await friend.getByLabel('Email').fill(friendEmail);
  await friend.getByRole('textbox', { name: 'Password', exact: true }).fill(STRONG_PASSWORD);
  await friend.getByRole('checkbox').nth(0).check();
  await friend.getByRole('checkbox').nth(1).check();
  await friend.getByRole('button', { name: 'Next' }).click();
  await friend.getByRole('button', { name: 'Setup account' }).click();
  await expect(friend.getByText('Final step – verify your email')).toBeVisible({ timeout: 30_000 });
  await new SignupFlow(friend).verifyByMail(DATA_DIR, friendEmail);

  // The referrer: 100 MB more permanent storage, 9 rewards left, and a notification saying why.
  await page.getByRole('link', { name: 'Storage', exact: true }).first().click();
  await expect(permanentCard).toContainText('of 200 MB used', { timeout: 30_000 });
  await page.getByRole('link', { name: 'Refer a friend' }).click();
  await expect(page.getByTestId('referral-rewards-left')).toHaveText('9 of 10 rewards left');
  await page.getByRole('link', { name: 'Notifications, unread items' }).first().click();
  await expect(page.getByText(`${friendEmail.toLowerCase()} signed up with your referral link: you earned 100 MB of permanent storage.`)).toBeVisible({ timeout: 30_000 });
});
