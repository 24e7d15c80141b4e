import type { Locator, Page } from '@playwright/test';
import { SignupFlow } from './pages/SignupFlow';
import { VaultRoom } from './pages/VaultRoom';
import { inviteAndAccept } from './pages/Members';
import { embeddedGatewayUrl } from './embeddedGateway';
import { DATA_DIR, STRONG_PASSWORD, expect, test, uniqueEmail } from './fixtures';
import { getApiJson } from './pages/pageApi';

// Spec 002 sections 2-9, spec 000 (the Atomic NFTs tab, Mint NFT), spec 001 (public NFT routes);
// issue 23's "Done when"; SYNC_SPEC R136-R141.

const OWNER = 'OWNERaddress0123456789abcdefghijklmnopqrstu'.slice(0, 43);
const CREATOR = 'CREATORaddress_0123456789-abcdefghijklmnopq'.slice(0, 43);
const ADDRESS_ERROR = 'This must match the format for an Arweave wallet address.';
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAIAAAACCAIAAAD91JpzAAAAFklEQVR4nGP8z8DAwMDAxMDAwMDAAAANHQEDasKb6QAAAABJRU5ErkJggg==',
  'base64',
);

type Tag = { name: string; value: string };

/** An item's tags, in order and with repeats, and its data, as the embedded gateway serves them. */
async function gatewayItem(id: string): Promise<{ tags: Tag[]; data: Buffer }> {
  const gateway = embeddedGatewayUrl();
  const response = await fetch(`${gateway}/graphql`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ query: `{ transaction(id: "${id}") { tags { name value } } }` }),
  });
  const body = (await response.json()) as { data: { transaction: { tags: Tag[] } | null } };
  expect(body.data.transaction, `the gateway knows ${id}`).not.toBeNull();
  const data = await fetch(`${gateway}/${id}`);
  expect(data.ok).toBe(true);
  return { tags: body.data.transaction!.tags, data: Buffer.from(await data.arrayBuffer()) };
}

// A control that never comes fails the step in half a minute, not at the test's end.
test.use({ actionTimeout: 30_000 });

const valuesOf = (tags: Tag[], name: string) => tags.filter((tag) => tag.name === name).map((tag) => tag.value);

/** The value of a label in an InfoList (dt/dd) inside `scope`. */
function infoValue(scope: Locator, label: string): Locator {
  return scope.locator('dt', { hasText: new RegExp(`^${label}$`) }).locator('xpath=following-sibling::dd[1]');
}

async function next(page: Page): Promise<void> {
  await page.getByRole('button', { name: 'Next' }).click();
}

test('Atomic NFTs: a single NFT with a custom UDL and a collection of three with the default UDL reach REGISTERED, their items carry what was entered, and a signed-out visitor opens them', async ({ page, browser, shoot }, testInfo) => {
  test.setTimeout(420_000);
  const mark = `N${Date.now().toString(36)}`;
  const vaultName = `Gallery ${mark}`;
  await new SignupFlow(page).createAccount(DATA_DIR, uniqueEmail(testInfo, 'nft-owner'), STRONG_PASSWORD);
  const room = new VaultRoom(page);
  await room.createVault(vaultName, { storage: 'Permanent storage', privacy: 'Public', terms: 'Credit the photographer.' });
  const vaultId = /\/vaults\/active\/([A-Za-z0-9_-]+)\/assets/.exec(page.url())![1]!;

  // A viewer sees the tab but cannot mint (spec 002 section 6).
  const viewerContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined, baseURL: new URL(page.url()).origin });
  const viewer = await viewerContext.newPage();
  const viewerEmail = uniqueEmail(testInfo, 'nft-viewer');
  await new SignupFlow(viewer).createAccount(DATA_DIR, viewerEmail, STRONG_PASSWORD);
  await inviteAndAccept(page, vaultName, viewer, viewerEmail, 'VIEWER');
  await viewer.getByRole('tab', { name: 'Atomic NFTs' }).click();
  await expect(viewer).toHaveURL(new RegExp(`/vaults/active/${vaultId}/nfts$`));
  await expect(viewer.getByRole('button', { name: 'Mint NFT' }).or(viewer.getByRole('link', { name: 'Mint NFT' }))).toHaveAttribute('data-disabled', 'true');
  await viewerContext.close();

  // --- a single NFT, fractional, with a custom UDL, listed on the marketplace --------------------
  await page.getByRole('tab', { name: 'Atomic NFTs' }).click();
  await expect(page).toHaveURL(new RegExp(`/vaults/active/${vaultId}/nfts$`));
  await shoot('nfts-empty');
  await page.getByRole('link', { name: 'Mint NFT' }).click();
  await page.getByRole('radio', { name: 'Single Atomic NFT' }).check();
  await next(page);

  await page.getByRole('textbox', { name: 'Name' }).fill(`Ridge ${mark}`);
  await page.getByRole('textbox', { name: 'Description' }).fill('Dawn over the northern ridge');
  const owner = page.getByRole('textbox', { name: 'Owner' });
  await owner.fill('not-an-address');
  await owner.blur();
  await expect(page.getByText(ADDRESS_ERROR)).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await owner.fill(OWNER);
  await expect(page.getByText(ADDRESS_ERROR)).toBeHidden();
  // Setting the owner sets the creator (spec 002 section 4); the creator may differ.
  await expect(page.getByRole('textbox', { name: 'Creator' })).toHaveValue(OWNER);
  await page.getByRole('textbox', { name: 'Creator' }).fill(CREATOR);
  await page.getByRole('switch', { name: 'Fractional' }).check();
  const parts = page.getByRole('textbox', { name: 'Fraction parts' }).or(page.getByRole('spinbutton', { name: 'Fraction parts' }));
  await expect(parts).toHaveValue('100');
  await parts.fill('1');
  await expect(page.getByText('Enter a number from 2 to 100.')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await parts.fill('5');
  await shoot('nft-metadata');
  await next(page);

  await page.getByRole('radio', { name: 'Customize UDL settings' }).check();
  await next(page);
  await expect(page.getByText('These terms cannot be edited once the NFT is minted.')).toBeVisible();
  await page.getByRole('switch', { name: 'One-time fee' }).check();
  const fee = page.getByRole('textbox', { name: 'License fee' });
  await fee.fill('0');
  await expect(page.getByText('Enter a number')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await fee.fill('3');
  await page.getByRole('combobox', { name: 'Derivations type' }).click();
  await page.getByRole('option', { name: 'Allowed-With-Fee' }).click();
  const derivationFee = page.getByRole('group', { name: 'Derivations' }).getByRole('textbox', { name: 'Fee', exact: true });
  await derivationFee.fill('0');
  await expect(page.getByRole('group', { name: 'Derivations' }).getByText('Enter a number')).toBeVisible();
  await expect(page.getByRole('button', { name: 'Next' })).toBeDisabled();
  await derivationFee.fill('2');
  await page.getByRole('combobox', { name: 'Commercial use type' }).click();
  await page.getByRole('option', { name: 'Allowed-With-RevenueShare' }).click();
  await page.getByRole('textbox', { name: 'Revenue share (%)' }).fill('10');
  await page.getByRole('combobox', { name: 'Data Model Training type' }).click();
  await page.getByRole('option', { name: 'Allowed', exact: true }).click();
  await page.getByRole('combobox', { name: 'Unknown usage rights' }).click();
  await page.getByRole('option', { name: 'Excluded' }).click();
  await page.getByRole('textbox', { name: 'Duration (years)' }).fill('5');
  // The owner's address became the licence's payment address.
  await expect(page.getByRole('textbox', { name: 'Payment address' })).toHaveValue(OWNER);
  await page.getByRole('combobox', { name: 'Payment mode' }).click();
  await page.getByRole('option', { name: 'Global distribution' }).click();
  await shoot('nft-udl-custom');
  await next(page);

  await page.getByRole('radio', { name: 'List on the Universal Content Marketplace' }).check();
  await next(page);
  const chooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'File' }).click();
  await (await chooser).setFiles({ name: 'ridge.png', mimeType: 'image/png', buffer: PNG });
  await page.getByRole('button', { name: 'Mint' }).click();
  await expect(page.getByText('Atomic NFT minted')).toBeVisible({ timeout: 60_000 });
  await expect(page).toHaveURL(new RegExp(`/vaults/active/${vaultId}/nfts$`));

  const singleCard = page.getByRole('link', { name: new RegExp(`^Ridge ${mark}, `) });
  await expect(singleCard).toBeVisible();
  await expect(singleCard).toContainText('NFT successfully minted', { timeout: 180_000 });
  await singleCard.click();
  const onChain = page.getByRole('region', { name: 'On-chain data' });
  await expect(infoValue(onChain, 'NFT id')).toHaveText(/^[A-Za-z0-9_-]{43}$/);
  const nftItemId = (await infoValue(onChain, 'NFT id').textContent())!;
  await expect(infoValue(onChain, 'Balances')).toHaveText(`${OWNER}: 5 fractional tokens`);
  const licence = page.getByRole('region', { name: 'Universal Data License' });
  await expect(infoValue(licence, 'Access')).toHaveText('One-Time, 3');
  await expect(infoValue(licence, 'Derivations')).toHaveText('Allowed-With-Fee, One-Time, 2');
  await expect(infoValue(licence, 'Commercial use')).toHaveText('Allowed-With-RevenueShare, 10%');
  await expect(infoValue(licence, 'Duration')).toHaveText('5 years');
  await expect(page.getByRole('button', { name: 'Share' })).toBeVisible();
  await shoot('nft-detail');

  const single = await gatewayItem(nftItemId);
  expect(single.data.equals(PNG)).toBe(true);
  expect(valuesOf(single.tags, 'Content-Type')).toEqual(['image/png']);
  expect(valuesOf(single.tags, 'Title')).toEqual([`Ridge ${mark}`]);
  expect(valuesOf(single.tags, 'Description')).toEqual(['Dawn over the northern ridge']);
  expect(valuesOf(single.tags, 'Creator')).toEqual([CREATOR]);
  expect(valuesOf(single.tags, 'Contract-Src')).toEqual(['Of9pi--Gj7hCTawhgxOwbuWnFI1h24TTgO5pw8ENJNQ']);
  expect(valuesOf(single.tags, 'App-Name')).toContain('SmartWeaveContract');
  expect(JSON.parse(valuesOf(single.tags, 'Init-State')[0]!)).toMatchObject({ name: `Ridge ${mark}`, owner: OWNER, creator: CREATOR, balances: { [OWNER]: 5 } });
  expect(valuesOf(single.tags, 'License')).toEqual(['IVjAM1C3x3GFdc3t9EqMnbtGnpgTuJbaiYZa1lk09_8']);
  expect(valuesOf(single.tags, 'Access-Fee')).toEqual(['One-Time-3']);
  expect(valuesOf(single.tags, 'Derivation')).toEqual(['Allowed-With-Fee-One-Time-2']);
  expect(valuesOf(single.tags, 'Commercial-Use')).toEqual(['Allowed-With-RevenueShare-10%']);
  expect(valuesOf(single.tags, 'Data-Model-Training')).toEqual(['Allowed']);
  expect(valuesOf(single.tags, 'Unknown-Usage-Rights')).toEqual(['Excluded']);
  expect(valuesOf(single.tags, 'Expires')).toEqual(['5']);
  expect(valuesOf(single.tags, 'Payment-Address')).toEqual([OWNER]);
  expect(valuesOf(single.tags, 'Payment-Mode')).toEqual(['Global-Distribution']);
  expect(valuesOf(single.tags, 'Indexed-By')).toEqual(['ucm']);
  const nftId = /\/nfts\/([A-Za-z0-9_-]+)$/.exec(page.url())![1]!;

  // --- a collection of three with the default UDL --------------------------------------------------
  await page.getByRole('tab', { name: 'Atomic NFTs' }).click();
  await page.getByRole('link', { name: 'Mint NFT' }).click();
  await page.getByRole('radio', { name: 'NFT collection' }).check();
  await next(page);
  await page.getByRole('textbox', { name: 'Name' }).fill(`Peaks ${mark}`);
  await page.getByRole('textbox', { name: 'Description' }).fill('Three summits');
  await page.getByRole('textbox', { name: 'Owner' }).fill(OWNER);
  await next(page);
  await expect(page.getByText(/every Atomic NFT in the collection/)).toBeVisible();
  await page.getByRole('radio', { name: 'Default UDL settings' }).check();
  await next(page);
  await page.getByRole('radio', { name: 'Do not list' }).check();
  await next(page);
  // Collection display: the thumbnail and banner are optional.
  await next(page);
  const filesChooser = page.waitForEvent('filechooser');
  await page.getByRole('button', { name: 'Files' }).click();
  const peaks = ['alpha', 'bravo', 'charlie'].map((name, index) => ({ name: `${name}.txt`, mimeType: 'text/plain', buffer: Buffer.from(`${mark} summit ${index + 1}\n`) }));
  await (await filesChooser).setFiles(peaks);
  await page.getByRole('button', { name: 'Mint' }).click();
  await expect(page.getByText('NFT collection minted')).toBeVisible({ timeout: 60_000 });
  const collectionCard = page.getByRole('link', { name: new RegExp(`^Peaks ${mark}, collection, `) });
  await expect(collectionCard).toContainText('NFT successfully minted', { timeout: 180_000 });
  // An NFT of a collection is listed in its collection only (R141).
  await expect(page.getByRole('link', { name: /^alpha, / })).toHaveCount(0);
  await shoot('nfts-list');
  await collectionCard.click();
  await expect(page.getByRole('heading', { level: 1, name: `Peaks ${mark}` })).toBeVisible();
  const collectionId = /\/nfts\/collection\/([A-Za-z0-9_-]+)$/.exec(page.url())![1]!;
  const members = page.getByRole('list', { name: `NFTs of Peaks ${mark}` });
  for (const name of ['alpha', 'bravo', 'charlie']) await expect(members.getByRole('link', { name: new RegExp(`^${name}, `) })).toContainText('NFT successfully minted', { timeout: 180_000 });
  // Not listed on the marketplace: no marketplace link.
  await expect(page.getByRole('link', { name: 'View on the marketplace' })).toHaveCount(0);

  const itemIds: string[] = [];
  for (const [index, name] of ['alpha', 'bravo', 'charlie'].entries()) {
    await members.getByRole('link', { name: new RegExp(`^${name}, `) }).click();
    const section = page.getByRole('region', { name: 'On-chain data' });
    await expect(infoValue(section, 'NFT id')).toHaveText(/^[A-Za-z0-9_-]{43}$/);
    const id = (await infoValue(section, 'NFT id').textContent())!;
    itemIds.push(id);
    await expect(infoValue(page.getByRole('region', { name: 'Universal Data License' }), 'Access')).toHaveText('Free');
    const item = await gatewayItem(id);
    expect(item.data.equals(peaks[index]!.buffer)).toBe(true);
    expect(valuesOf(item.tags, 'Title')).toEqual([name]);
    expect(valuesOf(item.tags, 'Collection-Code')).toEqual([collectionId]);
    // The default UDL is the licence alone (R138); no marketplace.
    expect(valuesOf(item.tags, 'License')).toEqual(['IVjAM1C3x3GFdc3t9EqMnbtGnpgTuJbaiYZa1lk09_8']);
    expect(item.tags.filter((tag) => ['Access-Fee', 'Derivation', 'Commercial-Use', 'Data-Model-Training', 'Indexed-By'].includes(tag.name))).toEqual([]);
    expect(JSON.parse(valuesOf(item.tags, 'Init-State')[0]!)).toMatchObject({ owner: OWNER, balances: { [OWNER]: 1 } });
    await page.getByRole('link', { name: 'Back to the collection' }).or(page.getByRole('link', { name: `Back to Peaks ${mark}` })).click();
  }
  // The collection's own item lists the three in order.
  const chain = await getApiJson<{ items: { objectId: string; dataItemId: string | null; status: string }[] }>(page, `/api/vaults/${vaultId}/nfts/chain`);
  const collectionState = chain.items.find((item) => item.objectId === collectionId)!;
  expect(collectionState.status).toBe('REGISTERED');
  const collectionItem = await gatewayItem(collectionState.dataItemId!);
  expect(JSON.parse(collectionItem.data.toString('utf8'))).toEqual({ type: 'Collection', items: itemIds });
  expect(valuesOf(collectionItem.tags, 'Data-Protocol')).toEqual(['Collection']);
  expect(valuesOf(collectionItem.tags, 'Title')).toEqual([`Peaks ${mark}`]);
  expect(valuesOf(collectionItem.tags, 'License')).toEqual(['IVjAM1C3x3GFdc3t9EqMnbtGnpgTuJbaiYZa1lk09_8']);

  // --- signed out: the NFT, the collection and an NFT inside it ------------------------------------
  const guestContext = await browser.newContext({ viewport: page.viewportSize() ?? undefined, baseURL: new URL(page.url()).origin });
  const guest = await guestContext.newPage();
  await guest.goto(`/public/vaults/active/${vaultId}/nfts/${nftId}`);
  // The public viewer's page heading is the vault's; an NFT's is the next level.
  await expect(guest.getByRole('heading', { level: 1, name: vaultName })).toBeVisible({ timeout: 30_000 });
  await expect(guest.getByRole('heading', { level: 2, name: `Ridge ${mark}` })).toBeVisible({ timeout: 30_000 });
  await expect(infoValue(guest.getByRole('region', { name: 'On-chain data' }), 'NFT id')).toHaveText(nftItemId);
  await expect(guest.getByRole('img', { name: `Ridge ${mark}` })).toBeVisible();
  await expect(guest.getByRole('button', { name: 'Share' })).toHaveCount(0);
  await guest.goto(`/public/vaults/active/${vaultId}/nfts/collection/${collectionId}`);
  await expect(guest.getByRole('heading', { level: 2, name: `Peaks ${mark}` })).toBeVisible({ timeout: 30_000 });
  await guest.getByRole('list', { name: `NFTs of Peaks ${mark}` }).getByRole('link', { name: /^bravo, / }).click();
  await expect(guest).toHaveURL(new RegExp(`/public/vaults/active/${vaultId}/nfts/collection/${collectionId}/[A-Za-z0-9_-]+$`));
  await expect(guest.getByRole('heading', { level: 2, name: 'bravo' })).toBeVisible();
  await expect(infoValue(guest.getByRole('region', { name: 'On-chain data' }), 'NFT id')).toHaveText(itemIds[1]!);
  await page.setViewportSize({ width: 375, height: 800 });
  await guest.setViewportSize({ width: 375, height: 800 });
  await shoot('nft-detail-375');
  await guest.screenshot({ path: testInfo.outputPath('nft-public-375.png'), fullPage: true });
  await guestContext.close();
});
