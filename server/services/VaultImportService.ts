/**
 * Imports a vault's verified history onto this server (issue 19, docs/SYNC_SPEC.md R91-R93): the
 * restoring member sends the vault's R84 runs in order, and each operation is checked as a push
 * would be (signature, then the server's own rules, in order, at the seq it had), so the vault
 * keeps its id, its operations verbatim and their seqs. Any refusal removes the whole import.
 */
import { type Kysely, sql } from 'kysely';
import { ApiError } from '../../src/protocol/errors';
import { IMPORT_REFUSED_SEQ, type VaultImportRequest, type VaultImportResponse } from '../../src/protocol/vaultImport';
import { type Operation, operationSigningPayload } from '../../src/protocol/vaults';
import type { Database } from '../db/Database';
import { isUniqueViolation } from '../db/isUniqueViolation';
import { fromDbBool } from '../db/dbBool';
import type { Clock } from './Clock';
import type { OperationService } from './OperationService';
import { addressOf, verifySignedPayload } from './signatures';
import type { StorageService } from './StorageService';
import { insertPlaceholderUser } from './UserService';
import { findMembership, findVault, type Db } from './vaultRows';

/**
 * A placeholder's X25519 key is not in any operation (R92): this stands in until its phrase signs
 * up. Nothing is sealed to a placeholder: it cannot be looked up or invited (it is unverified).
 */
const UNKNOWN_ENCRYPTION_KEY = '0'.repeat(64);

type ImportStatus = VaultImportResponse['status'];

export class VaultImportService {
  /** Whether `vaults.history_seq` (the history relay's position, R84) exists; read once. */
  private hasHistorySeq: Promise<boolean> | null = null;

  constructor(
    private readonly db: Kysely<Database>,
    private readonly clock: Clock,
    private readonly operations: Pick<OperationService, 'applyImported'>,
    private readonly storage: Pick<StorageService, 'usedBy' | 'allowanceOf'>,
  ) {}

  /** Applies the next run of `vaultId`'s history for `importer`; answers the head reached. */
  async importRun(importer: { id: string }, vaultId: string, request: VaultImportRequest): Promise<VaultImportResponse> {
    const { run, isLast } = request;
    if (run.vaultId !== vaultId) throw new ApiError('VALIDATION_FAILED', 'The run is of another vault', [{ path: 'run.vaultId', message: 'Expected the vault of the URL' }]);
    await this.assertMayContinue(importer.id, vaultId, run.seqFrom);
    let status: ImportStatus = 'IN_PROGRESS';
    // Read before the transaction: SQLite has one connection, which the transaction holds.
    const hasHistorySeq = await this.historySeqExists();
    try {
      await this.db.transaction().execute(async (trx) => {
        if (run.seqFrom === 1) await this.startImport(trx, importer.id, vaultId, run.ops[0]?.op);
        for (const entry of run.ops) await this.applyEntry(trx, vaultId, entry.seq, entry.receivedAt, entry.op);
        if (isLast) {
          const membership = await findMembership(trx, vaultId, importer.id);
          if (membership?.status !== 'ACCEPTED' || membership.role === 'REVOKED') {
            throw new ApiError('FORBIDDEN', 'Only a member who holds an accepted membership at the end of its history may import a vault');
          }
          status = 'DONE';
        }
        const updated = await trx
          .updateTable('vault_imports')
          .set({ next_seq: run.seqTo + 1, status, updated_at: this.clock.now() })
          .where('vault_id', '=', vaultId)
          .where('user_id', '=', importer.id)
          .where('status', '=', 'IN_PROGRESS')
          .where('next_seq', '=', run.seqFrom)
          .executeTakeFirst();
        // Two requests raced for the same run: only one may append it.
        if (Number(updated.numUpdatedRows) !== 1) throw new ApiError('CONFLICT', 'Another request imported this run meanwhile');
        if (hasHistorySeq) await sql`update vaults set history_seq = ${run.seqTo} where id = ${vaultId}`.execute(trx);
      });
    } catch (error) {
      // A refused operation or importer leaves nothing of the import behind (R91). A lost race
      // (a CONFLICT that names no operation) leaves the winner's work alone.
      if (!isLostRace(error)) await this.removeImport(vaultId, importer.id);
      throw error;
    }
    return { vaultId, headSeq: run.seqTo, status };
  }

  /**
   * R93: the imported operations are on the network already, in the runs they were read from, so
   * the history relay must not make runs of them again: its position (`vaults.history_seq`, R84)
   * moves to the imported head in each page's own transaction, before the relay can see its ops.
   * Only new operations after the import go out, as this server's runs (R86, R89). The column is
   * looked up by name so this works on a database with or without the relay's migration.
   */
  private historySeqExists(): Promise<boolean> {
    this.hasHistorySeq ??= this.db.introspection
      .getTables()
      .then((tables) => tables.some((table) => table.name === 'vaults' && table.columns.some((column) => column.name === 'history_seq')));
    return this.hasHistorySeq;
  }

  /** R91: the server has no vault with this id, or this user's import of it expects `seqFrom`. */
  private async assertMayContinue(userId: string, vaultId: string, seqFrom: number): Promise<void> {
    const current = await this.db.selectFrom('vault_imports').selectAll().where('vault_id', '=', vaultId).executeTakeFirst();
    if (!current) {
      if (await findVault(this.db, vaultId)) throw new ApiError('CONFLICT', 'This server already has a vault with this id');
      if (seqFrom !== 1) throw new ApiError('UNPROCESSABLE', 'An import starts with the run from seq 1');
      return;
    }
    if (current.user_id !== userId || current.status !== 'IN_PROGRESS') throw new ApiError('CONFLICT', 'This server already has a vault with this id');
    if (Number(current.next_seq) !== seqFrom) {
      throw new ApiError('UNPROCESSABLE', `The import expects the run from seq ${Number(current.next_seq)}`, [{ path: 'run.seqFrom', message: String(Number(current.next_seq)) }]);
    }
  }

  private async startImport(trx: Db, userId: string, vaultId: string, first: Operation | undefined): Promise<void> {
    if (first?.body.type !== 'vault.create') throw refused(1, new ApiError('INVALID_OPERATION', 'A vault\'s history starts with its vault.create'));
    const now = this.clock.now();
    try {
      await trx
        .insertInto('vault_imports')
        .values({ vault_id: vaultId, user_id: userId, status: 'IN_PROGRESS', next_seq: 1, creator_membership_id: null, created_at: now, updated_at: now })
        .execute();
    } catch (error) {
      if (isUniqueViolation(error)) throw new ApiError('CONFLICT', 'Another request started this import meanwhile');
      throw error;
    }
  }

  /** One operation at `seq`: signature, accounts, then the push's own rules (R92). */
  private async applyEntry(trx: Db, vaultId: string, seq: number, receivedAt: number, op: Operation): Promise<void> {
    try {
      const { signature, ...unsigned } = op;
      if (!verifySignedPayload(op.author, operationSigningPayload(unsigned), signature)) {
        throw new ApiError('INVALID_SIGNATURE', 'The operation signature does not verify');
      }
      if (receivedAt > this.clock.now()) throw new ApiError('INVALID_OPERATION', 'The operation was received in the future');
      const previous = await trx.selectFrom('ops').select('received_at').where('vault_id', '=', vaultId).orderBy('seq', 'desc').executeTakeFirst();
      if (previous && Number(previous.received_at) > receivedAt) throw new ApiError('INVALID_OPERATION', 'The operations were received out of order');
      const authorId = await accountOf(trx, op.author, this.clock.now());
      if (op.body.type === 'member.invite') await accountOf(trx, op.body.memberKey, this.clock.now());
      await adoptCreatorMembershipId(trx, vaultId, op);
      const applied = await this.operations.applyImported(trx, authorId, op, receivedAt);
      if (applied !== seq) throw new ApiError('INVALID_OPERATION', `The operation would be seq ${applied} here`);
      if (op.body.type === 'vault.create') {
        const creator = await findMembership(trx, vaultId, authorId);
        await trx.updateTable('vault_imports').set({ creator_membership_id: creator?.id ?? null }).where('vault_id', '=', vaultId).execute();
      }
      if (op.body.type === 'file.create' || op.body.type === 'file.addVersion') await this.assertRoomForVersions(trx, vaultId);
    } catch (error) {
      if (error instanceof ApiError) throw refused(seq, error);
      // An operation or object id this server already has elsewhere (ops.op_id, a node's id).
      if (isUniqueViolation(error)) throw refused(seq, new ApiError('INVALID_OPERATION', 'An id of this operation is already used on this server'));
      throw error;
    }
  }

  /** Storage limits apply (R92): the vault owner's allowance pays for the imported versions too. */
  private async assertRoomForVersions(trx: Db, vaultId: string): Promise<void> {
    const vault = await findVault(trx, vaultId);
    if (!vault) return;
    const used = await this.storage.usedBy(vault.ownerUserId, trx);
    const allowance = await this.storage.allowanceOf(vault.ownerUserId, vault.isCloud, trx);
    if ((vault.isCloud ? used.cloud : used.permanent) > allowance) {
      throw new ApiError('NOT_ENOUGH_STORAGE', "The vault's files exceed the storage of its owner's account on this server.");
    }
  }

  /**
   * Removes everything an import made: the vault (its operations, nodes, memberships, blobs and
   * rows go with it by cascade), the import's row, and the placeholders it made that nothing else
   * here refers to. No chunk bytes exist yet for a removed import: they come after a finished one.
   */
  private async removeImport(vaultId: string, userId: string): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const current = await trx.selectFrom('vault_imports').select(['user_id', 'status']).where('vault_id', '=', vaultId).executeTakeFirst();
      if (current && (current.user_id !== userId || current.status !== 'IN_PROGRESS')) return;
      if (current) await trx.deleteFrom('vaults').where('id', '=', vaultId).execute();
      await trx.deleteFrom('vault_imports').where('vault_id', '=', vaultId).execute();
      await trx
        .deleteFrom('users')
        .where('opaque_record', '=', '')
        .where('passwordless', '=', 0)
        .where('id', 'not in', (eb) => eb.selectFrom('memberships').select('user_id'))
        .where('id', 'not in', (eb) => eb.selectFrom('ops').select('author_user_id'))
        .where('id', 'not in', (eb) => eb.selectFrom('vaults').select('owner_user_id'))
        .execute();
    });
  }
}

/**
 * The creator's membership is the one a vault.create makes, under an id the server chose, which
 * no operation carries: the first operation that names a membership this server does not have
 * (a revoke's rotation sealing the ring to the owner, the owner leaving, ...) names it, so it
 * takes that id here (R92). Every other membership's id is its invitation's object id.
 */
async function adoptCreatorMembershipId(trx: Db, vaultId: string, op: Operation): Promise<void> {
  const named = membershipIdsNamedBy(op);
  if (named.length === 0) return;
  const current = await trx.selectFrom('vault_imports').select('creator_membership_id').where('vault_id', '=', vaultId).executeTakeFirst();
  const provisional = current?.creator_membership_id;
  if (!provisional) return;
  for (const id of named) {
    if (id === provisional) break;
    const known = await trx.selectFrom('memberships').select('id').where('id', '=', id).executeTakeFirst();
    if (known) continue;
    await trx.updateTable('memberships').set({ id }).where('id', '=', provisional).where('vault_id', '=', vaultId).execute();
    break;
  }
  const adopted = named.includes(provisional) || (await trx.selectFrom('memberships').select('id').where('id', '=', provisional).executeTakeFirst()) === undefined;
  if (adopted) await trx.updateTable('vault_imports').set({ creator_membership_id: null }).where('vault_id', '=', vaultId).execute();
}

/** The membership ids an operation refers to that it did not create. */
function membershipIdsNamedBy(op: Operation): string[] {
  const body = op.body;
  switch (body.type) {
    case 'member.confirm':
    case 'member.accept':
    case 'member.reject':
    case 'member.changeRole':
    case 'member.leave':
      return [op.objectId];
    case 'member.revoke':
      return [op.objectId, ...Object.keys(body.rotation?.sealedKeys ?? {})];
    case 'vault.rotateKeys':
      return Object.keys(body.rotation.sealedKeys);
    default:
      return [];
  }
}

/** The account of a signing key here, or a new placeholder bound to it alone (R92). */
async function accountOf(trx: Db, publicSigningKey: string, now: number): Promise<string> {
  const row = await trx.selectFrom('users').select(['id', 'passwordless', 'email_verified', 'opaque_record']).where('public_signing_key', '=', publicSigningKey).executeTakeFirst();
  if (row) {
    // An unverified sign-up may yet be replaced (R57, R91): an import does not build on it.
    if (!fromDbBool(row.email_verified) && row.opaque_record !== '' && !fromDbBool(row.passwordless)) {
      throw new ApiError('CONFLICT', 'An account with this key is waiting for its e-mail to be verified: verify it, then import again');
    }
    return row.id;
  }
  return insertPlaceholderUser(trx, { publicSigningKey, publicEncryptionKey: UNKNOWN_ENCRYPTION_KEY, address: addressOf(publicSigningKey) }, now);
}

function isLostRace(error: unknown): boolean {
  return error instanceof ApiError && error.code === 'CONFLICT' && !error.details?.some((d) => d.path === IMPORT_REFUSED_SEQ);
}

/** The refusal of the operation at `seq`, naming it (R91). */
function refused(seq: number, cause: ApiError): ApiError {
  if (cause.details?.some((d) => d.path === IMPORT_REFUSED_SEQ)) return cause;
  return new ApiError(cause.code, `Operation ${seq} of the history was refused: ${cause.message}`, [
    { path: IMPORT_REFUSED_SEQ, message: String(seq) },
    ...(cause.details ?? []),
  ]);
}
