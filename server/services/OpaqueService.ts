import * as opaque from '@serenity-kit/opaque';
import type { Kysely } from 'kysely';
import { ApiError } from '../../src/protocol/errors';
import type { Database } from '../db/Database';
import type { Clock } from './Clock';
import { randomId } from './tokens';

/** A started OPAQUE login must be finished within this time. */
export const OPAQUE_LOGIN_TTL_MS = 5 * 60 * 1000;

const SERVER_SETUP_SECRET = 'opaque-server-setup';

export type LoginPurpose = 'login' | 'reauth';

export interface StartLoginInput {
  purpose: LoginPurpose;
  /** The lower-cased e-mail: the OPAQUE user identifier. */
  userIdentifier: string;
  /** Null for an unknown e-mail: OPAQUE then answers with a fake record, indistinguishable. */
  user: { id: string; opaqueRecord: string } | null;
  startLoginRequest: string;
  /** For reauth: the session that must finish it. */
  sessionHash: string | null;
}

/**
 * The server side of OPAQUE (@serenity-kit/opaque). Owns the server setup (the OPRF and static
 * keys, created once and kept in `server_secrets`, so records and logins survive a restart) and
 * the pending login states.
 */
export class OpaqueService {
  private constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly serverSetup: string,
    /** A real client start message, used to check that a submitted record can be loaded. */
    private readonly probeStartLoginRequest: string,
  ) {}

  /** Waits for the WebAssembly module and loads (or creates, once) the server setup. */
  static async load(db: Kysely<Database>, clock: Clock): Promise<OpaqueService> {
    await opaque.ready;
    const existing = await readSecret(db);
    let serverSetup = existing;
    if (!serverSetup) {
      // Several processes may start at once on PostgreSQL: the first insert wins, all read it back.
      await db
        .insertInto('server_secrets')
        .values({ name: SERVER_SETUP_SECRET, value: opaque.server.createSetup(), created_at: clock.now() })
        .onConflict((oc) => oc.column('name').doNothing())
        .execute();
      serverSetup = await readSecret(db);
    }
    if (!serverSetup) throw new Error('OPAQUE server setup could not be stored');
    const { startLoginRequest } = opaque.client.startLogin({ password: randomId() });
    return new OpaqueService(db, clock, serverSetup, startLoginRequest);
  }

  /** Registration step 1 (sign-up, password change, recovery). 400 for a malformed request. */
  createRegistrationResponse(userIdentifier: string, registrationRequest: string): string {
    try {
      return opaque.server.createRegistrationResponse({
        serverSetup: this.serverSetup,
        userIdentifier,
        registrationRequest,
      }).registrationResponse;
    } catch {
      throw new ApiError('BAD_REQUEST', 'Invalid OPAQUE registration request');
    }
  }

  /**
   * Throws 400 VALIDATION_FAILED unless `registrationRecord` can be loaded, so a broken record is
   * refused when it is submitted instead of breaking every later login.
   */
  assertValidRecord(registrationRecord: string): void {
    try {
      opaque.server.startLogin({
        serverSetup: this.serverSetup,
        userIdentifier: 'record-check',
        registrationRecord,
        startLoginRequest: this.probeStartLoginRequest,
      });
    } catch {
      throw new ApiError('VALIDATION_FAILED', 'Invalid registration record', [
        { path: 'registrationRecord', message: 'Not an OPAQUE registration record' },
      ]);
    }
  }

  async startLogin(input: StartLoginInput): Promise<{ loginId: string; loginResponse: string }> {
    let result: { serverLoginState: string; loginResponse: string };
    try {
      result = opaque.server.startLogin({
        serverSetup: this.serverSetup,
        userIdentifier: input.userIdentifier,
        registrationRecord: input.user?.opaqueRecord ?? null,
        startLoginRequest: input.startLoginRequest,
      });
    } catch {
      throw new ApiError('BAD_REQUEST', 'Invalid OPAQUE login request');
    }
    const now = this.clock.now();
    const loginId = randomId();
    await this.db.deleteFrom('opaque_logins').where('expires_at', '<=', now).execute();
    await this.db
      .insertInto('opaque_logins')
      .values({
        id: loginId,
        user_id: input.user?.id ?? null,
        purpose: input.purpose,
        server_login_state: result.serverLoginState,
        session_hash: input.sessionHash,
        created_at: now,
        expires_at: now + OPAQUE_LOGIN_TTL_MS,
      })
      .execute();
    return { loginId, loginResponse: result.loginResponse };
  }

  /**
   * Checks the client's proof. Each started login can be finished once; any failure (unknown or
   * expired id, other purpose or session, wrong password, unknown e-mail) is 401 INVALID_CREDENTIALS.
   */
  async finishLogin(
    loginId: string,
    finishLoginRequest: string,
    purpose: LoginPurpose,
    sessionHash: string | null = null,
  ): Promise<{ userId: string }> {
    const row = await this.db.selectFrom('opaque_logins').selectAll().where('id', '=', loginId).executeTakeFirst();
    if (!row) throw invalidCredentials();
    await this.db.deleteFrom('opaque_logins').where('id', '=', loginId).execute();
    if (row.purpose !== purpose || row.session_hash !== sessionHash || Number(row.expires_at) <= this.clock.now()) {
      throw invalidCredentials();
    }
    try {
      opaque.server.finishLogin({ serverLoginState: row.server_login_state, finishLoginRequest });
    } catch {
      throw invalidCredentials();
    }
    // A fake-record login cannot produce a valid proof; this check is belt and braces.
    if (!row.user_id) throw invalidCredentials();
    return { userId: row.user_id };
  }
}

function invalidCredentials(): ApiError {
  return new ApiError('INVALID_CREDENTIALS', 'Your login details are not recognised.');
}

async function readSecret(db: Kysely<Database>): Promise<string | undefined> {
  const row = await db
    .selectFrom('server_secrets')
    .select('value')
    .where('name', '=', SERVER_SETUP_SECRET)
    .executeTakeFirst();
  return row?.value;
}
