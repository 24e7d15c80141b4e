import type { z } from 'zod';
import type {
  ChangePasswordFinishRequest,
  UpdateAttributesRequest,
  SignedRequest,
  UpdateProfileRequest,
} from '../../src/protocol/auth';
import { ApiError } from '../../src/protocol/errors';
import type { BlobStore } from '../blobs/BlobStore';
import { releaseVaultsOf } from './accountDeletion';
import type { Clock } from './Clock';
import type { OpaqueService } from './OpaqueService';
import type { ReauthService } from './ReauthService';
import type { Session, SessionService } from './SessionService';
import { assertSignedRequest, verifySignedPayload } from './signatures';
import type { User, UserService } from './UserService';
import type { Db } from './vaultRows';

type Attributes = z.output<typeof UpdateAttributesRequest>;
type Profile = z.output<typeof UpdateProfileRequest>;
type ChangePasswordFinish = z.output<typeof ChangePasswordFinishRequest>;

export interface Photo {
  contentType: string;
  bytes: Buffer;
}

/** The signed-in user's own account: attributes, profile, password change and deletion. */
export class AccountService {
  constructor(
    private readonly users: UserService,
    private readonly opaque: OpaqueService,
    private readonly sessions: SessionService,
    private readonly reauth: ReauthService,
    private readonly clock: Clock,
    private readonly db: Db,
    private readonly blobStore: BlobStore,
  ) {}

  async updateAttributes(user: User, attributes: Attributes): Promise<User> {
    return mustExist(await this.users.update(user.id, attributes));
  }

  /** `photo: null` removes the photo; an absent field is left as it is. */
  async updateProfile(user: User, profile: Profile): Promise<User> {
    return mustExist(
      await this.users.update(user.id, {
        ...(profile.name !== undefined ? { name: profile.name } : {}),
        ...(profile.photo !== undefined ? { photo: profile.photo } : {}),
      }),
    );
  }

  /** The decoded photo of the account with this address, or null. */
  async photo(address: string): Promise<Photo | null> {
    const user = await this.users.findByAddress(address);
    const match = user?.photo?.match(/^data:(image\/(?:png|jpeg|webp));base64,([A-Za-z0-9+/]+=*)$/);
    if (!match?.[1] || !match[2]) return null;
    return { contentType: match[1], bytes: Buffer.from(match[2], 'base64') };
  }

  /** OPAQUE registration step 1 for a new password. 401 for a bad or expired reauth token. */
  async startPasswordChange(
    user: User,
    session: Session,
    reauthToken: string,
    registrationRequest: string,
  ): Promise<{ registrationResponse: string }> {
    await this.reauth.check(reauthToken, user.id, session.tokenHash);
    return { registrationResponse: this.opaque.createRegistrationResponse(user.email, registrationRequest) };
  }

  /**
   * Replaces the OPAQUE record and the phrase backup once the account's key signed them, and ends
   * the account's other sessions (they were opened with the old password).
   */
  async finishPasswordChange(user: User, session: Session, request: ChangePasswordFinish): Promise<User> {
    await this.reauth.check(request.reauthToken, user.id, session.tokenHash);
    const signed = {
      purpose: 'change-password',
      userId: user.id,
      registrationRecord: request.registrationRecord,
      encBackupPhrase: request.encBackupPhrase,
    };
    if (!verifySignedPayload(user.publicSigningKey, signed, request.signature)) {
      throw new ApiError('INVALID_SIGNATURE', 'The request is not signed by the account key');
    }
    this.opaque.assertValidRecord(request.registrationRecord);
    await this.reauth.consume(request.reauthToken, user.id, session.tokenHash);
    const updated = mustExist(
      await this.users.update(user.id, { opaqueRecord: request.registrationRecord, encBackupPhrase: request.encBackupPhrase }),
    );
    await this.sessions.revokeAllForUser(user.id, session.tokenHash);
    return updated;
  }

  /**
   * Deletes the account and, by cascade, everything that belongs to it, after handing its shared
   * vaults over to their other owners (accountDeletion.ts, SYNC_SPEC R60): in one transaction, so
   * a refused deletion (a shared vault with no other owner) changes nothing. The chunk files of
   * the vaults deleted with it go after the commit, so a rollback never loses bytes.
   */
  async delete(user: User, request: SignedRequest): Promise<void> {
    const now = this.clock.now();
    assertSignedRequest(user, 'delete-account', request, now);
    const freedKeys = await this.db.transaction().execute(async (trx) => {
      const keys = await releaseVaultsOf(trx, user.id, now);
      // Through the session service rather than the cascade, so the account's sockets close too.
      await this.sessions.revokeAllForUser(user.id, undefined, trx);
      await this.users.delete(user.id, trx);
      return keys;
    });
    for (const key of freedKeys) await this.blobStore.delete(key);
  }
}

function mustExist(user: User | null): User {
  if (!user) throw new ApiError('UNAUTHENTICATED', 'The account no longer exists');
  return user;
}
