/**
 * Issue 19: an account made on a server from a recovery phrase the user already has (same keys,
 * same address), and one account per phrase on a server (docs/SYNC_SPEC.md R91).
 */
import { expect, it } from 'vitest';
import type { SessionResult } from '../../src/protocol/auth';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { expectError, expectStatus, logIn, logInSession, signUp, signUpVerified, verificationLink } from '../testing/flows';
import { TestUser } from '../testing/TestUser';
import { insertPlaceholderUser } from '../services/UserService';

const ABANDON_PHRASE = 'abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon abandon about';

describeEachDatabase('sign-up with an existing recovery phrase', (env) => {
  it('[R91] signs up with the keys of the typed phrase: the DESIGN reference vector gives its address and key', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create({ phrase: ABANDON_PHRASE });
    const session = await newVerifiedSession(api, env.dataDir, user);
    expect(session.user).toMatchObject({
      email: user.email,
      address: '654KyaguCVnaojCIaY-ZHqj7KOByyUwCMWi4mJKOhyw',
      publicSigningKey: '4dc169ce254e3077194c03865739070de5f89c0b93b6d97cf0f09b9a5a167dfa',
    });
  });

  it('[R91] a phrase that has a verified account here is refused under another e-mail with PHRASE_TAKEN, and nothing changes', async () => {
    const api = new ApiClient(await env.buildApp());
    const owner = await TestUser.create();
    await signUpVerified(api, env.dataDir, owner);
    const again = await TestUser.create({ phrase: owner.phrase });

    const answer = await signUp(api, again);
    expectError(answer, 409, 'PHRASE_TAKEN');
    expect(JSON.stringify(answer.body)).toMatch(/recovery phrase already exists/);
    expect(await env.db.selectFrom('users').select('email').where('address', '=', owner.address).execute()).toEqual([{ email: owner.email }]);
    expect(await env.db.selectFrom('users').select('id').where('email', '=', again.email).execute()).toEqual([]);
    // No verification link was sent to the second address, and the owner still logs in.
    expect(() => verificationLink(env.dataDir, again.email)).toThrow(/No verification mail/);
    expectStatus((await logIn(api, owner)).response, 200);
  });

  it('[R91] an unverified sign-up of the phrase (a mistyped e-mail) gives way to its next sign-up under the right e-mail', async () => {
    const api = new ApiClient(await env.buildApp());
    const typo = await TestUser.create();
    expectStatus(await signUp(api, typo), 200);
    const typoLink = verificationLink(env.dataDir, typo.email);
    const right = await TestUser.create({ phrase: typo.phrase });
    expectStatus(await signUp(api, right), 200);

    expectError(await api.post('/api/auth/verify-email', { uid: typoLink.uid, code: typoLink.code }), 400, 'CODE_MISMATCH');
    const session = await newVerifiedSession(api, env.dataDir, right, false);
    expect(session.user).toMatchObject({ email: right.email, address: typo.address });
    expect(await env.db.selectFrom('users').select('email').where('address', '=', typo.address).execute()).toEqual([{ email: right.email }]);
  });

  it('[R92] an imported author\'s placeholder cannot sign in, and becomes the account of whoever signs up with its phrase, keeping its id', async () => {
    const app = await env.buildApp();
    const api = new ApiClient(app);
    const author = await TestUser.create();
    const placeholderId = await insertPlaceholderUser(
      env.db,
      { publicSigningKey: author.publicSigningKey, publicEncryptionKey: author.publicEncryptionKey, address: author.address },
      Date.now(),
    );
    // The wallet login is for airdrop accounts only: a placeholder has no way in.
    const challenge = await api.post('/api/auth/wallet/challenge', { publicSigningKey: author.publicSigningKey });
    expectStatus(challenge, 200);
    const value = String((challenge.body as { challenge: string }).challenge);
    const walletLogin = await api.post('/api/auth/wallet/login', {
      publicSigningKey: author.publicSigningKey,
      challenge: value,
      signature: await author.sign({ purpose: 'wallet-login', challenge: value }),
    });
    expectError(walletLogin, 401, 'INVALID_CREDENTIALS');

    const session = await newVerifiedSession(api, env.dataDir, author);
    expect(session.user).toMatchObject({ id: placeholderId, email: author.email, address: author.address });
    expect(await env.db.selectFrom('users').select('id').where('address', '=', author.address).execute()).toEqual([{ id: placeholderId }]);
  });
});

async function newVerifiedSession(api: ApiClient, dataDir: string, user: TestUser, signUpFirst = true): Promise<SessionResult> {
  if (signUpFirst) expectStatus(await signUp(api, user), 200);
  const link = verificationLink(dataDir, user.email);
  expectStatus(await api.post('/api/auth/verify-email', { uid: link.uid, code: link.code }), 200);
  return logInSession(api, user);
}
