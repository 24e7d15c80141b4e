/**
 * DESIGN.md section 2: nothing secret ever reaches the server. After a full sign-up, login,
 * password change and recovery with known secrets, neither anything the client sent nor anything
 * under DATA_DIR (database files included) contains the password, the phrase or the private key.
 */
import fs from 'node:fs';
import path from 'node:path';
import { expect, it } from 'vitest';
import { RecoverRegisterResponse } from '../src/protocol/auth';
import { TABLES } from './db/Database';
import { ApiClient } from './testing/ApiClient';
import { describeEachDatabase } from './testing/databases';
import { changePassword, expectStatus, logInSession, newSession } from './testing/flows';
import { latestMailTo } from './testing/mailbox';
import { TestUser } from './testing/TestUser';

function filesUnder(dir: string): string[] {
  return fs.readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const full = path.join(dir, entry.name);
    return entry.isDirectory() ? filesUnder(full) : [full];
  });
}

describeEachDatabase('no secret leaves the device', (env) => {
  it('finds no password, phrase or private key in requests or DATA_DIR', async () => {
    const firstPassword = 'first secret passphrase Zebra-Quilt-77';
    const secondPassword = 'second secret passphrase Mango-Harp-31';
    const thirdPassword = 'third secret passphrase Otter-Lamp-58';
    const user = await TestUser.create({ password: firstPassword });
    const api = new ApiClient(await env.buildApp());

    const session = await newSession(api, env.dataDir, user);
    expectStatus(await changePassword(api, user, session.token, secondPassword), 200);
    await logInSession(api, user, true);

    // Recovery with the phrase, as the recover screens would do it.
    expectStatus(await api.post('/api/auth/recover/start', { email: user.email }), 200);
    const link = latestMailTo(env.dataDir, user.email)?.links.find((l) => l.includes('/recover/'));
    const code = new URL(link ?? 'http://x').searchParams.get('code') ?? '';
    const registration = user.startRegistration(thirdPassword);
    const register = await api.post('/api/auth/recover/register', { email: user.email, code, registrationRequest: registration.registrationRequest });
    const { registrationResponse, challenge } = RecoverRegisterResponse.parse(register.body);
    const { registrationRecord, exportKey } = user.finishRegistration(registration.state, registrationResponse, thirdPassword);
    const encBackupPhrase = await user.sealPhrase(exportKey);
    const signature = await user.sign({ purpose: 'recover', email: user.email, challenge, registrationRecord, encBackupPhrase });
    expectStatus(
      await api.post('/api/auth/recover/finish', { email: user.email, code, challenge, registrationRecord, encBackupPhrase, keepSignedIn: false, signature }),
      200,
    );

    // Close everything so SQLite's WAL is checkpointed into the file being scanned as well.
    await api.app.close();
    await env.reopenDatabase();

    const privateKey = Buffer.from(user.privateKeyHex, 'hex');
    const secrets: Record<string, string> = {
      'first password': firstPassword,
      'second password': secondPassword,
      'third password': thirdPassword,
      phrase: user.phrase,
      'phrase words 1-4': user.phrase.split(' ').slice(0, 4).join(' '),
      'private key hex': user.privateKeyHex,
      'private key base64': privateKey.toString('base64'),
      'private key base64url': privateKey.toString('base64url'),
    };

    expect(api.sentBodies.length).toBeGreaterThan(10);
    const sent = [...api.sentBodies, ...api.sentUrls].join('\n');
    for (const [name, secret] of Object.entries(secrets)) expect(sent.includes(secret), `request bodies contain the ${name}`).toBe(false);

    // Positive control: the scan does see what the server legitimately stores.
    expect(sent.includes(user.publicSigningKey)).toBe(true);

    const files = filesUnder(env.dataDir);
    if (env.kind === 'sqlite') {
      expect(files.some((f) => fs.readFileSync(f).includes(Buffer.from(user.publicSigningKey))), 'scan sees the database').toBe(true);
    }
    expect(files.some((f) => f.endsWith('.eml'))).toBe(true);
    if (env.kind === 'sqlite') expect(files.some((f) => f.endsWith('cairn.sqlite'))).toBe(true);
    for (const file of files) {
      const bytes = fs.readFileSync(file);
      for (const [name, secret] of Object.entries(secrets)) {
        expect(bytes.includes(Buffer.from(secret, 'utf8')), `${path.relative(env.dataDir, file)} contains the ${name}`).toBe(false);
      }
      // The raw key bytes too, in case something stored it as a blob.
      expect(bytes.includes(privateKey), `${file} contains the raw private key`).toBe(false);
    }

    if (env.kind === 'postgres') {
      expect(JSON.stringify(await env.db.selectFrom('users').selectAll().execute())).toContain(user.publicSigningKey);
      // On PostgreSQL the data lives in the server: scan every text column of every table.
      for (const table of TABLES) {
        const dump = JSON.stringify(await env.db.selectFrom(table).selectAll().execute());
        for (const [name, secret] of Object.entries(secrets)) expect(dump.includes(secret), `${table} contains the ${name}`).toBe(false);
      }
    }
  });
});
