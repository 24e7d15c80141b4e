import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom, type UploadFile } from './pages/VaultRoom';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';

// docs/SYNC_SPEC.md R32-R33: search runs on this device, over the decrypted vaults, offline too.
test('search: find a file by a prefix of its name, a note by a word of its body, and search offline after a reload', async ({ page, shoot }, testInfo) => {
  test.setTimeout(180_000);
  const mark = `s${Date.now().toString(36)}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'search'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  const vaultName = `Coastal survey ${mark}`;
  await room.createVault(vaultName, { storage: 'Cloud storage', privacy: 'Private' });
  const chart: UploadFile = { name: `harbour chart ${mark}.pdf`, mimeType: 'application/pdf', buffer: Buffer.from('%PDF-1.4 not really') };
  const log: UploadFile = { name: `lighthouse log ${mark}.txt`, mimeType: 'text/plain', buffer: Buffer.from('keeper notes') };
  const note: UploadFile = { name: `plans ${mark}.md`, mimeType: 'text/markdown', buffer: Buffer.from(`# Plans\n\nBook the zeppelin${mark} for the survey.\n`) };
  await room.pickFiles([chart, log, note]);
  await room.confirmUpload();
  for (const file of [chart, log, note]) await expect(room.row(file.name)).toBeVisible({ timeout: 60_000 });
  await expect(page.getByRole('progressbar', { name: 'Upload progress' })).toBeHidden({ timeout: 30_000 });

  // The top bar's box on desktop; a phone's search icon opens /search, whose page holds it.
  // Suggestions from the first characters; the button only past 2 characters.
  const isPhone = testInfo.project.name === 'phone';
  const scope = isPhone ? page.getByRole('main') : page.locator('header');
  const box = scope.getByRole('combobox', { name: 'Search your vaults' });
  const button = scope.getByRole('button', { name: 'Search', exact: true });
  const openSearch = async () => {
    if (isPhone) {
      await page.getByRole('link', { name: 'Search' }).click();
      await expect(page).toHaveURL(/\/search$/);
    }
    await box.click();
  };
  await openSearch();
  await box.pressSequentially('ha');
  await expect(button).toBeDisabled();
  // The index follows vault changes about 5 s later.
  await expect(page.getByRole('option', { name: chart.name })).toBeVisible({ timeout: 30_000 });
  // 'v' types into the box instead of opening vault creation.
  await box.pressSequentially('rbv');
  await expect(page).not.toHaveURL(/create-vault/);
  await box.press('Backspace');
  await expect(button).toBeEnabled();
  await button.click();
  await expect(page).toHaveURL(/\/search-results\?term=harb$/);
  await expect(page.getByTestId('search-results-heading')).toHaveText('1 result');
  const results = page.getByRole('table', { name: 'Search results' });
  await expect(results.getByRole('link', { name: chart.name })).toBeVisible();
  await expect(results.getByText(`Document in ${vaultName}`)).toBeVisible();
  await shoot('search-results');
  await page.emulateMedia({ colorScheme: 'dark' });
  // An empty box offers the recent terms.
  await box.fill('');
  await expect(page.getByRole('option', { name: 'harb', exact: true })).toBeVisible();
  await shoot('search-results-dark-recent');
  await box.press('Escape');
  await page.emulateMedia({ colorScheme: 'light' });

  // Open it from its actions menu.
  await results.getByRole('button', { name: `Actions for ${chart.name}` }).click();
  await page.getByRole('menuitem', { name: 'Open file' }).click();
  await expect(page).toHaveURL(/\/stack\//);
  await expect(page.getByRole('heading', { name: chart.name })).toBeVisible();

  // A word inside the note (its latest version is downloaded, decrypted and indexed in the background).
  // The results follow the index as it changes, without a reload.
  await page.goto(`/search-results?term=zeppelin${mark}`);
  await expect(page.getByTestId('search-results-heading')).toHaveText('1 result', { timeout: 40_000 });
  await expect(results.getByRole('link', { name: note.name })).toBeVisible();
  await results.getByRole('button', { name: `Actions for ${note.name}` }).click();
  await expect(page.getByRole('menuitem', { name: 'Open note' })).toBeVisible();
  await page.keyboard.press('Escape');

  // Nothing found: the spec's words.
  await page.goto('/search-results?term=plutonium');
  await expect(page.getByText('Sorry, there were no search results.')).toBeVisible();
  await expect(page.getByTestId('search-results-heading')).toHaveText('0 results');

  // Offline, after a reload: the saved index answers; recent terms are offered in the empty box.
  await page.goto('/vaults/active');
  await page.context().setOffline(true);
  await page.reload();
  await openSearch();
  await expect(page.getByRole('listbox').getByRole('option', { name: 'harb', exact: true })).toBeVisible();
  await box.pressSequentially('lighth');
  await box.press('Enter');
  await expect(page).toHaveURL(/\/search-results\?term=lighth$/);
  await expect(page.getByTestId('search-results-heading')).toHaveText('1 result');
  await expect(results.getByRole('link', { name: log.name })).toBeVisible();
  await page.context().setOffline(false);

  // A phone: the search icon opens /search (the desktop run narrows its window for this).
  if (!isPhone) await page.setViewportSize({ width: 375, height: 740 });
  await page.getByRole('link', { name: 'Search' }).click();
  await expect(page).toHaveURL(/\/search$/);
  await page.getByRole('combobox', { name: 'Search your vaults' }).pressSequentially('chart');
  await expect(page.getByRole('option', { name: chart.name })).toBeVisible();
  await shoot('search-mobile-suggestions');
  await page.getByRole('option', { name: chart.name }).click();
  await expect(page).toHaveURL(new RegExp(`/search-results\\?term=`));
  await expect(page.getByTestId('search-results-heading')).toHaveText('1 result');
  await shoot('search-mobile-results');
});
