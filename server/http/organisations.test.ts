/**
 * Organisations on the server (issue 22; SYNC_SPEC R124-R127; spec 001 sections 5-8): creating
 * one (plan feature, subdomain and logo rules), every role rule of every route, the branding a
 * subdomain serves signed out, a subdomain's readiness proved by a request through it, the
 * organisation airdrop flag, and the invitees' storage and billing. Both databases.
 */
import { expect, it } from 'vitest';
import { MyOrganisationResponse, Organisation, OrganisationBranding, OrganisationMember, OrganisationMembersResponse } from '../../src/protocol/organisations';
import { StorageResponse, VaultListResponse } from '../../src/protocol/vaults';
import { loadConfig } from '../config';
import { LOGO_REFUSED, SVG_REFUSED } from '../services/organisationLogo';
import { SUBDOMAIN_TAKEN } from '../services/OrganisationService';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus } from '../testing/flows';
import { readMailbox } from '../testing/mailbox';
import { createPrivateVault, inviteOp, postInvitations } from '../testing/members';
import { pebbleAndBoulder, writePlansFile } from '../testing/plansFixture';
import { VaultActor } from '../testing/vaults';

const PNG = `data:image/png;base64,${Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a, 1, 2, 3]).toString('base64')}`;
const svg = (text: string) => `data:image/svg+xml;base64,${Buffer.from(text).toString('base64')}`;
const PLAIN_SVG = svg('<?xml version="1.0"?>\n<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 10 10"><defs><linearGradient id="g"/></defs><rect fill="url(#g)" width="10" height="10"/><use xlink:href="#g"/></svg>');
const NOT_ALLOWED = 'You are not allowed to access this organization.';

let counter = 0;
/** A subdomain no other test of the shared database uses. */
function uniqueSubdomain(label: string): string {
  counter += 1;
  return `${label}${Date.now().toString(36)}${counter}`;
}

async function createOrganisation(actor: VaultActor, fields: Record<string, unknown> = {}) {
  return actor.api.post('/api/organisations', { name: 'Acme', subdomain: uniqueSubdomain('acme'), logo: PNG, primaryColor: '#D9480F', ...fields }, { token: actor.token });
}

async function mine(actor: VaultActor): Promise<MyOrganisationResponse> {
  const response = await actor.api.get('/api/organisations', { token: actor.token });
  expectStatus(response, 200);
  return MyOrganisationResponse.parse(response.body);
}

async function addPerson(admin: VaultActor, orgId: string, person: VaultActor, isAdmin: boolean): Promise<OrganisationMember> {
  const response = await admin.api.post(`/api/organisations/${orgId}/members`, { email: person.user.email, isAdmin }, { token: admin.token });
  expectStatus(response, 200);
  return OrganisationMember.parse(response.body);
}

/** An admin (the creator) with an organisation, another admin and a member. */
async function organisationOfThree(env: Parameters<Parameters<typeof describeEachDatabase>[1]>[0], api: ApiClient) {
  const creator = await VaultActor.create(env, api);
  const admin = await VaultActor.create(env, api);
  const member = await VaultActor.create(env, api);
  const created = await createOrganisation(creator);
  expectStatus(created, 200);
  const organisation = Organisation.parse(created.body);
  await addPerson(creator, organisation.id, admin, true);
  await addPerson(creator, organisation.id, member, false);
  return { creator, admin, member, organisation };
}

describeEachDatabase('organisations (R124-R127)', (env) => {
  it('[R124] a user creates an organisation: its creator is its admin, the subdomain starts pending, the colour is kept in lower case; a second one and a taken subdomain are refused', async () => {
    const api = new ApiClient(await env.buildApp());
    const alice = await VaultActor.create(env, api);
    expect(await mine(alice)).toEqual({ organisation: null, canCreate: true, showMenu: true });

    const subdomain = uniqueSubdomain('Acme');
    const created = await createOrganisation(alice, { subdomain, name: '  Acme Ltd  ' });
    expectStatus(created, 200);
    const organisation = Organisation.parse(created.body);
    expect(organisation).toMatchObject({
      name: 'Acme Ltd',
      subdomain: subdomain.toLowerCase(),
      subdomainStatus: 'pending',
      subdomainUrl: `http://${subdomain.toLowerCase()}.cairn.test`,
      logo: PNG,
      primaryColor: '#d9480f',
      secondaryColor: null,
      email: alice.user.email.toLowerCase(),
      orgRole: 'ADMIN',
      isOwner: true,
    });
    expect(await mine(alice)).toMatchObject({ organisation: { id: organisation.id }, canCreate: false, showMenu: true });

    expectError(await createOrganisation(alice), 409, 'CONFLICT');
    const bob = await VaultActor.create(env, api);
    const taken = await createOrganisation(bob, { subdomain });
    expectError(taken, 409, 'CONFLICT');
    expect(JSON.stringify(taken.body)).toContain(SUBDOMAIN_TAKEN);
    expect((await mine(bob)).organisation).toBeNull();
  });

  it('[R124] name, subdomain (letters and digits) and logo are required; a logo must be a real PNG, JPG or plain SVG of at most 1 MB; nothing is created otherwise', async () => {
    const api = new ApiClient(await env.buildApp());
    const alice = await VaultActor.create(env, api);
    const refusedWith = async (fields: Record<string, unknown>, code: string, text?: string) => {
      const response = await createOrganisation(alice, fields);
      expectError(response, 400, code as never);
      if (text) expect(JSON.stringify(response.body)).toContain(text);
    };
    await refusedWith({ name: '   ' }, 'VALIDATION_FAILED');
    await refusedWith({ subdomain: 'my-org' }, 'VALIDATION_FAILED', 'Letters and digits only');
    await refusedWith({ logo: undefined }, 'VALIDATION_FAILED');
    await refusedWith({ primaryColor: 'orange' }, 'VALIDATION_FAILED');
    await refusedWith({ logo: 'data:image/gif;base64,R0lGODlhAQABAAAAACw=' }, 'VALIDATION_FAILED');
    // Says PNG, is not one.
    await refusedWith({ logo: `data:image/png;base64,${Buffer.from('<svg></svg>').toString('base64')}` }, 'VALIDATION_FAILED', LOGO_REFUSED);
    // One byte over 1 MB.
    const big = Buffer.alloc(1_000_001, 7);
    big.set([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
    await refusedWith({ logo: `data:image/png;base64,${big.toString('base64')}` }, 'VALIDATION_FAILED', LOGO_REFUSED);
    // SVGs that could run or load anything.
    for (const hostile of [
      '<svg xmlns="http://www.w3.org/2000/svg"><script>alert(1)</script></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"><rect/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><a href="javascript:alert(1)"><rect/></a></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><foreignObject><div/></foreignObject></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><image href="https://tracker.example/p.png"/></svg>',
      '<svg xmlns="http://www.w3.org/2000/svg"><style>@import url(https://evil.example/x.css);</style></svg>',
      '<!DOCTYPE svg [<!ENTITY x SYSTEM "file:///etc/passwd">]><svg xmlns="http://www.w3.org/2000/svg">&x;</svg>',
    ]) {
      await refusedWith({ logo: svg(hostile) }, 'VALIDATION_FAILED', SVG_REFUSED);
    }
    await refusedWith({ logo: svg('<html><body>not a picture</body></html>') }, 'VALIDATION_FAILED', LOGO_REFUSED);
    expect((await mine(alice)).organisation).toBeNull();

    // A plain SVG with in-file references and a JPEG are logos.
    expectStatus(await createOrganisation(alice, { logo: PLAIN_SVG }), 200);
    const bob = await VaultActor.create(env, api);
    expectStatus(await createOrganisation(bob, { logo: `data:image/jpeg;base64,${Buffer.from([0xff, 0xd8, 0xff, 0xe0, 1, 2]).toString('base64')}` }), 200);
  });

  it('[R124] with a plans file naming the organisation feature, a plan without it cannot create one and sees no menu', async () => {
    const plans = writePlansFile(pebbleAndBoulder({ eur: 950, usd: 1000, gbp: 800 }, 'vaults;members;organisation'));
    const { plans: catalog, storageAllowances, memberLimit } = loadConfig({ PLANS_FILE: plans });
    const api = new ApiClient(await env.buildApp({ config: { plans: catalog, storageAllowances, memberLimit } }));
    const alice = await VaultActor.create(env, api);
    expect(await mine(alice)).toEqual({ organisation: null, canCreate: false, showMenu: false });
    const refused = await createOrganisation(alice);
    expectError(refused, 403, 'FEATURE_NOT_IN_PLAN');
    expect(JSON.stringify(refused.body)).toContain('Organisation account is not part of the Pebble plan');

    await env.db.updateTable('users').set({ plan_id: 'boulder' }).where('id', '=', alice.userId).execute();
    expect(await mine(alice)).toEqual({ organisation: null, canCreate: true, showMenu: true });
    expectStatus(await createOrganisation(alice), 200);
  });

  it('[R126] admins change the organisation and its people; members only read the list; outsiders read nothing; the creator stays', async () => {
    const api = new ApiClient(await env.buildApp());
    const { creator, admin, member, organisation } = await organisationOfThree(env, api);
    const outsider = await VaultActor.create(env, api);
    const base = `/api/organisations/${organisation.id}`;

    const list = OrganisationMembersResponse.parse((await api.get(`${base}/members`, { token: member.token })).body);
    expect(list.admins.map((p) => [p.email, p.role, p.isAdmin, p.isOwner])).toEqual([
      [creator.user.email.toLowerCase(), 'OWNER', true, true],
      [admin.user.email.toLowerCase(), 'OWNER', true, false],
    ]);
    expect(list.members.map((p) => [p.email, p.role, p.publicEncryptionKey])).toEqual([[member.user.email.toLowerCase(), 'MEMBER', member.user.publicEncryptionKey]]);

    // The member's view: a MEMBER, no menu, nothing to change.
    expect(await mine(member)).toMatchObject({ organisation: { id: organisation.id, orgRole: 'MEMBER', isOwner: false }, canCreate: false, showMenu: false });
    expect(await mine(admin)).toMatchObject({ organisation: { orgRole: 'ADMIN', isOwner: false }, showMenu: true });
    for (const response of [
      await api.request('PUT', base, { name: 'Taken over' }, { token: member.token }),
      await api.post(`${base}/members`, { email: outsider.user.email, isAdmin: false }, { token: member.token }),
      await api.request('DELETE', `${base}/members/${encodeURIComponent(admin.user.email)}`, undefined, { token: member.token }),
    ]) {
      expectError(response, 403, 'FORBIDDEN');
      expect(JSON.stringify(response.body)).toContain(NOT_ALLOWED);
    }
    // Someone with no organisation: it does not exist for them; someone of another one: not allowed.
    expectError(await api.get(`${base}/members`, { token: outsider.token }), 404, 'ORG_DOESNT_EXISTS');
    expectError(await api.post(`${base}/members`, { email: member.user.email, isAdmin: false }, { token: outsider.token }), 404, 'ORG_DOESNT_EXISTS');
    expectStatus(await createOrganisation(outsider), 200);
    expectError(await api.get(`${base}/members`, { token: outsider.token }), 403, 'FORBIDDEN');
    expectError(await api.request('PUT', base, { name: 'Mine now' }, { token: outsider.token }), 403, 'FORBIDDEN');
    expect((await mine(creator)).organisation?.name).toBe('Acme');

    // The other admin renames it; the creator cannot be removed, the member can.
    expectStatus(await api.request('PUT', base, { name: 'Acme Group' }, { token: admin.token }), 200);
    expect((await mine(member)).organisation?.name).toBe('Acme Group');
    expectError(await api.request('DELETE', `${base}/members/${encodeURIComponent(creator.user.email)}`, undefined, { token: admin.token }), 403, 'FORBIDDEN');
    expectStatus(await api.request('DELETE', `${base}/members/${encodeURIComponent(member.user.email)}`, undefined, { token: admin.token }), 200);
    expect((await mine(member)).organisation).toBeNull();
    const after = OrganisationMembersResponse.parse((await api.get(`${base}/members`, { token: creator.token })).body);
    expect(after.members).toEqual([]);
    expectError(await api.request('DELETE', `${base}/members/${encodeURIComponent(member.user.email)}`, undefined, { token: admin.token }), 404, 'NOT_FOUND');
  });

  it('[R126] invitations: existing verified accounts only, one organisation each, e-mailed unless skipped', async () => {
    const api = new ApiClient(await env.buildApp());
    const { creator, admin, organisation } = await organisationOfThree(env, api);
    const base = `/api/organisations/${organisation.id}`;
    const mails = readMailbox(env.dataDir).filter((mail) => mail.to.toLowerCase().includes(admin.user.email.toLowerCase()));
    expect(mails.at(-1)?.subject).toBe(`${creator.user.email.toLowerCase()} added you to an organisation on Cairn`);
    expect(mails.at(-1)?.decoded).toContain('"Acme" on Cairn as an admin');

    expectError(await api.post(`${base}/members`, { email: 'nobody-here@example.com', isAdmin: false }, { token: creator.token }), 404, 'USER_NOT_FOUND');
    // Already in this organisation, or in another.
    expectError(await api.post(`${base}/members`, { email: admin.user.email, isAdmin: false }, { token: creator.token }), 409, 'ALREADY_MEMBER');
    const other = await VaultActor.create(env, api);
    expectStatus(await createOrganisation(other), 200);
    expectError(await api.post(`${base}/members`, { email: other.user.email, isAdmin: true }, { token: creator.token }), 409, 'ALREADY_MEMBER');

    const quiet = await VaultActor.create(env, api);
    const before = readMailbox(env.dataDir).length;
    expectStatus(await api.post(`${base}/members`, { email: quiet.user.email.toUpperCase(), isAdmin: false, skipEmail: true }, { token: admin.token }), 200);
    expect(readMailbox(env.dataDir).length).toBe(before);
    expect(await mine(quiet)).toMatchObject({ organisation: { id: organisation.id, orgRole: 'MEMBER' } });
  });

  it('[R125] a subdomain visited before any organisation took it still becomes ready once one does', async () => {
    const api = new ApiClient(await env.buildApp());
    const alice = await VaultActor.create(env, api);
    const subdomain = uniqueSubdomain('early');
    // Someone opens the address before the organisation exists (a typo, a bookmark, a scanner).
    expectStatus(await api.get('/api/health', { headers: { host: `${subdomain}.cairn.test` } }), 200);
    expectStatus(await createOrganisation(alice, { subdomain }), 200);
    expect((await mine(alice)).organisation?.subdomainStatus).toBe('pending');
    expectStatus(await api.get('/api/health', { headers: { host: `${subdomain}.cairn.test` } }), 200);
    expect((await mine(alice)).organisation?.subdomainStatus).toBe('done');
  });

  it('[R125] a subdomain is branded for anyone, signed out; it is done once a request reaches the server through it, and pending again when changed', async () => {
    const api = new ApiClient(await env.buildApp());
    const alice = await VaultActor.create(env, api);
    const subdomain = uniqueSubdomain('brand');
    const organisation = Organisation.parse((await createOrganisation(alice, { subdomain, logo: PLAIN_SVG, secondaryColor: '#364FC7' })).body);

    const branding = await api.get(`/api/organisations?subdomain=${subdomain}`);
    expectStatus(branding, 200);
    expect(OrganisationBranding.parse(branding.body)).toEqual({ id: organisation.id, name: 'Acme', subdomain, logo: PLAIN_SVG, primaryColor: '#d9480f', secondaryColor: '#364fc7' });
    expectError(await api.get('/api/organisations?subdomain=nosuchorganisation'), 404, 'ORG_DOESNT_EXISTS');
    expectError(await api.get('/api/organisations'), 401, 'UNAUTHENTICATED');

    // Requests through another host leave it pending; one through the subdomain makes it done.
    expectStatus(await api.get('/api/health', { headers: { host: `${subdomain}.elsewhere.test` } }), 200);
    expect((await mine(alice)).organisation?.subdomainStatus).toBe('pending');
    expectStatus(await api.get('/api/health', { headers: { host: `${subdomain}.cairn.test:8443` } }), 200);
    expect((await mine(alice)).organisation?.subdomainStatus).toBe('done');

    const renamed = uniqueSubdomain('rebrand');
    const updated = Organisation.parse((await api.request('PUT', `/api/organisations/${organisation.id}`, { subdomain: renamed }, { token: alice.token })).body);
    expect(updated).toMatchObject({ subdomain: renamed, subdomainStatus: 'pending', subdomainUrl: `http://${renamed}.cairn.test` });
    expectError(await api.get(`/api/organisations?subdomain=${subdomain}`), 404, 'ORG_DOESNT_EXISTS');
    expectStatus(await api.get('/', { headers: { host: `${renamed}.cairn.test` } }), 404);
    expect((await mine(alice)).organisation?.subdomainStatus).toBe('done');
  });

  it('[R127] an OWNER invitation to an admin from someone of the same organisation is an organisation airdrop; to a member or an outsider, or as another role, it is not', async () => {
    const api = new ApiClient(await env.buildApp());
    const { creator, admin, member } = await organisationOfThree(env, api);
    const outsider = await VaultActor.create(env, api);
    const airdropFlag = async (actor: VaultActor, vaultId: string) => {
      const list = VaultListResponse.parse((await api.get('/api/vaults', { token: actor.token })).body);
      return list.vaults.find((vault) => vault.vaultId === vaultId)?.membership;
    };

    // The creator's vault: the other admin invited as OWNER is airdropped; the member and the outsider are not.
    const shared = await createPrivateVault(creator);
    for (const person of [admin, member, outsider]) {
      expectStatus(await postInvitations(creator, shared.vaultId, [await inviteOp(creator, shared.vaultId, person, 'OWNER', shared.ring)]), 200);
    }
    expect(await airdropFlag(admin, shared.vaultId)).toMatchObject({ status: 'PENDING', role: 'OWNER', organisationAirdrop: true });
    expect(await airdropFlag(member, shared.vaultId)).toMatchObject({ status: 'PENDING', organisationAirdrop: false });
    expect(await airdropFlag(outsider, shared.vaultId)).toMatchObject({ status: 'PENDING', organisationAirdrop: false });

    // A vault the member made: the admins are airdropped into it. As a VIEWER, it is an ordinary invitation.
    const own = await createPrivateVault(member);
    expectStatus(await postInvitations(member, own.vaultId, [await inviteOp(member, own.vaultId, creator, 'OWNER', own.ring)]), 200);
    expectStatus(await postInvitations(member, own.vaultId, [await inviteOp(member, own.vaultId, admin, 'VIEWER', own.ring)]), 200);
    expect(await airdropFlag(creator, own.vaultId)).toMatchObject({ organisationAirdrop: true });
    expect(await airdropFlag(admin, own.vaultId)).toMatchObject({ role: 'VIEWER', organisationAirdrop: false });
    // The creator of a vault is not flagged for it.
    expect(await airdropFlag(member, own.vaultId)).toMatchObject({ status: 'ACCEPTED', organisationAirdrop: false });
  });

  it("[R126] an organisation's people use its creator's plan and storage, counted together, and do not buy plans or top-ups", async () => {
    const plans = writePlansFile(pebbleAndBoulder({ eur: 950, usd: 1000, gbp: 800 }));
    const { plans: catalog, storageAllowances, memberLimit } = loadConfig({ PLANS_FILE: plans });
    const api = new ApiClient(await env.buildApp({ config: { plans: catalog, storageAllowances, memberLimit } }));
    const { creator, member } = await organisationOfThree(env, api);
    await env.db.updateTable('users').set({ plan_id: 'boulder' }).where('id', '=', creator.userId).execute();

    const storage = StorageResponse.parse((await api.get('/api/storage', { token: member.token })).body);
    expect([storage.cloudTotal, storage.permanentTotal]).toEqual([100_000_000_000, 10_000_000_000]);

    for (const response of [
      await api.post('/api/billing/topups', { storage: 'cloud', gb: 1, currency: 'usd', acceptTerms: true }, { token: member.token }),
      await api.post('/api/billing/topup-quote', { storage: 'cloud', gb: 1, currency: 'usd' }, { token: member.token }),
      await api.request('DELETE', '/api/billing/subscription', undefined, { token: member.token }),
    ]) {
      expectError(response, 403, 'FORBIDDEN');
      expect(JSON.stringify(response.body)).toContain("Your organisation's plan covers your storage");
    }
    // One allowance, one use: what a member's vault takes counts for everyone of the organisation.
    const usedBy = async (actor: VaultActor) => StorageResponse.parse((await api.get('/api/storage', { token: actor.token })).body).cloudUsed;
    const [creatorBefore, memberBefore] = [await usedBy(creator), await usedBy(member)];
    expect(memberBefore).toBe(creatorBefore);
    await createPrivateVault(member, 'A vault of the member');
    const grown = await usedBy(creator);
    expect(grown).toBeGreaterThan(creatorBefore);
    expect(await usedBy(member)).toBe(grown);
    // Removed from the organisation, the member counts on their own again.
    expectStatus(await api.request('DELETE', `/api/organisations/${(await mine(creator)).organisation?.id}/members/${encodeURIComponent(member.user.email)}`, undefined, { token: creator.token }), 200);
    expect(await usedBy(member)).toBe(grown - creatorBefore);
    expect(await usedBy(creator)).toBe(creatorBefore);

    // The creator is not refused for being in an organisation (Pebble and Boulder sell no top-ups).
    const creatorQuote = await api.post('/api/billing/topup-quote', { storage: 'cloud', gb: 1, currency: 'usd' }, { token: creator.token });
    expect(JSON.stringify(creatorQuote.body)).not.toContain("Your organisation's plan covers your storage");
  });
});
