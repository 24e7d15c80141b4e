import { expect, it } from 'vitest';
import { SessionResponse } from '../../src/protocol/auth';
import { ApiClient } from '../testing/ApiClient';
import { describeEachDatabase } from '../testing/databases';
import { changePassword, expectError, expectStatus, field, logIn, logInSession, newSession, reauthToken, signUp } from '../testing/flows';
import { TestUser } from '../testing/TestUser';

// A 1x1 transparent PNG.
const PNG_BASE64 = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=';

describeEachDatabase('account', (env) => {
  it('changes the password: the old one fails, the new one works, other sessions end', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const otherDevice = await logInSession(api, user);
    const oldPassword = user.password;

    const finish = await changePassword(api, user, session.token, 'a brand new long passphrase 42');
    expectStatus(finish, 200);
    expect(SessionResponse.parse(finish.body).user.encBackupPhrase).not.toBe(session.user.encBackupPhrase);

    expect((await logIn(api, user, { password: oldPassword })).proofRejectedByClient).toBe(true);
    expectStatus((await logIn(api, user, { password: 'a brand new long passphrase 42' })).response, 200);
    expectStatus(await api.get('/api/account', { token: session.token }), 200);
    expectError(await api.get('/api/account', { token: otherDevice.token }), 401, 'UNAUTHENTICATED');
  });

  it('refuses a password change signed by another key, and leaves the password as it was', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const token = session.token;
    const impostor = await TestUser.create();

    const reauth = await reauthToken(api, user, token);
    const registration = user.startRegistration('another new passphrase here');
    const start = await api.post('/api/account/password/start', { reauthToken: reauth, registrationRequest: registration.registrationRequest }, { token });
    expectStatus(start, 200);
    const { registrationRecord, exportKey } = user.finishRegistration(
      registration.state,
      field(start.body, 'registrationResponse'),
      'another new passphrase here',
    );
    const encBackupPhrase = await user.sealPhrase(exportKey);
    const signature = await impostor.sign({ purpose: 'change-password', userId: session.user.id, registrationRecord, encBackupPhrase });
    expectError(
      await api.post('/api/account/password/finish', { reauthToken: reauth, registrationRecord, encBackupPhrase, signature }, { token }),
      403,
      'INVALID_SIGNATURE',
    );
    expectStatus((await logIn(api, user)).response, 200);
  });

  it('updates attributes and the profile, and serves the photo by address', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const { token } = session;
    // A new account starts with the onboarding tour and the upload notice on.
    expect(session.user).toMatchObject({ onboarding: true, notifyOnUpload: true });

    const patched = await api.request('PATCH', '/api/account/attributes', { mode: 'dark', notifyOnUpload: false, onboarding: false }, { token });
    expectStatus(patched, 200);
    expect(SessionResponse.parse(patched.body).user).toMatchObject({ mode: 'dark', notifyOnUpload: false, onboarding: false, notifications: true });
    const reread = await api.get('/api/account', { token });
    expect(SessionResponse.parse(reread.body).user).toMatchObject({ notifyOnUpload: false, onboarding: false });
    expectError(await api.request('PATCH', '/api/account/attributes', {}, { token }), 400, 'VALIDATION_FAILED');

    expectError(await api.get(`/api/profile/photo/${user.address}`), 404, 'NOT_FOUND');
    const put = await api.request('PUT', '/api/account/profile', { name: '  Ada  ', photo: `data:image/png;base64,${PNG_BASE64}` }, { token });
    expectStatus(put, 200);
    expect(SessionResponse.parse(put.body).user).toMatchObject({ name: 'Ada', hasPhoto: true });

    const photo = await api.get(`/api/profile/photo/${user.address}`);
    expectStatus(photo, 200);
    expect(photo.headers['content-type']).toBe('image/png');
    expect(photo.headers['x-content-type-options']).toBe('nosniff');

    const removed = await api.request('PUT', '/api/account/profile', { photo: null }, { token });
    expect(SessionResponse.parse(removed.body).user).toMatchObject({ name: 'Ada', hasPhoto: false });
    expectError(await api.get(`/api/profile/photo/${user.address}`), 404, 'NOT_FOUND');
  });

  it('accepts a profile photo near the 1.5 MB limit (2 MiB body limit on that route only)', async () => {
    const api = new ApiClient(await env.buildApp());
    const { token } = await newSession(api, env.dataDir, await TestUser.create());
    const big = `data:image/jpeg;base64,${'A'.repeat(1_400_000)}`;
    expectStatus(await api.request('PUT', '/api/account/profile', { photo: big }, { token }), 200);
    expectError(await api.request('PATCH', '/api/account/attributes', { mode: 'x'.repeat(70_000) }, { token }), 413, 'PAYLOAD_TOO_LARGE');
  });

  it('deletes the account with a fresh signature, and everything that belongs to it', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const token = session.token;
    const userId = session.user.id;
    expectStatus(await api.post('/api/support', { error: 'boom' }, { token }), 200);

    const stale = Date.now() - 6 * 60 * 1000;
    expectError(
      await api.request('DELETE', '/api/account', { signedAt: stale, signature: await user.sign({ purpose: 'delete-account', userId, signedAt: stale }) }, { token }),
      410,
      'EXPIRED',
    );
    const signedAt = env.clock.now();
    expectError(
      await api.request('DELETE', '/api/account', { signedAt, signature: await (await TestUser.create()).sign({ purpose: 'delete-account', userId, signedAt }) }, { token }),
      403,
      'INVALID_SIGNATURE',
    );
    expectError(await api.request('DELETE', '/api/account', undefined, { token }), 400, 'VALIDATION_FAILED');

    const deleted = await api.request('DELETE', '/api/account', { signedAt, signature: await user.sign({ purpose: 'delete-account', userId, signedAt }) }, { token });
    expectStatus(deleted, 200);
    expectError(await api.get('/api/account', { token }), 401, 'UNAUTHENTICATED');
    for (const table of ['users', 'sessions', 'email_tokens', 'support_reports'] as const) {
      const column = table === 'users' ? 'id' : 'user_id';
      const rows = await env.db.selectFrom(table).select(column).where(column, '=', userId).execute();
      expect(rows, table).toHaveLength(0);
    }
    // The e-mail can be used again.
    expectStatus(await signUp(api, await TestUser.create({ email: user.email })), 200);
  });
});
