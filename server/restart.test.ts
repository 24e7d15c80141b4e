import { expect, it } from 'vitest';
import { ApiClient } from './testing/ApiClient';
import { describeEachDatabase } from './testing/databases';
import { expectStatus, logInSession, newSession, signUp, verifyEmail } from './testing/flows';
import { TestUser } from './testing/TestUser';

describeEachDatabase('restart', (env) => {
  it('keeps sessions, OPAQUE records and pending links across a restart', async () => {
    const api = new ApiClient(await env.buildApp());
    const user = await TestUser.create();
    const session = await newSession(api, env.dataDir, user);
    const pending = await TestUser.create();
    expectStatus(await signUp(api, pending), 200);
    const setupBefore = await env.db.selectFrom('server_secrets').selectAll().execute();

    await api.app.close();
    await env.reopenDatabase();
    api.app = await env.buildApp();

    expect(await env.db.selectFrom('server_secrets').selectAll().execute()).toEqual(setupBefore);
    expectStatus(await api.get('/api/account', { token: session.token }), 200);
    await logInSession(api, user);
    expectStatus(await verifyEmail(api, env.dataDir, pending.email), 200);
    await logInSession(api, pending);
  });
});
