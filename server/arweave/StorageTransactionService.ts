/**
 * GET /storage/transactions (spec 000 section 7): the caller's own uploads to permanent storage,
 * newest first, by an opaque cursor (created_at, id of the last row shown).
 */
import { ApiError } from '../../src/protocol/errors';
import { type StorageTransactionPage, type StorageTransactionsQuery } from '../../src/protocol/arweave';
import type { Kysely } from 'kysely';
import type { Database } from '../db/Database';
import { toStorageTransaction } from './storageTransactionRows';

interface Cursor {
  c: number;
  i: string;
}

export class StorageTransactionService {
  constructor(private readonly db: Kysely<Database>) {}

  async list(userId: string, query: StorageTransactionsQuery): Promise<StorageTransactionPage> {
    const cursor = query.nextToken ? decodeCursor(query.nextToken) : null;
    // A vault's history runs are charged to its owner but are nobody's upload (R84).
    let select = this.db.selectFrom('storage_transactions').selectAll().where('uploader_user_id', '=', userId).where('kind', '=', 'version');
    if (cursor) {
      select = select.where((eb) => eb.or([eb('created_at', '<', cursor.c), eb.and([eb('created_at', '=', cursor.c), eb('id', '<', cursor.i)])]));
    }
    const rows = await select.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(query.limit + 1).execute();
    const page = rows.slice(0, query.limit);
    const last = page.at(-1);
    const nextToken = rows.length > query.limit && last ? encodeCursor({ c: Number(last.created_at), i: last.id }) : null;
    return { items: page.map(toStorageTransaction), nextToken };
  }
}

function encodeCursor(cursor: Cursor): string {
  return Buffer.from(JSON.stringify(cursor)).toString('base64url');
}

function decodeCursor(token: string): Cursor {
  try {
    const value = JSON.parse(Buffer.from(token, 'base64url').toString('utf8')) as Partial<Cursor>;
    if (typeof value.c === 'number' && Number.isSafeInteger(value.c) && typeof value.i === 'string' && value.i.length <= 64) return { c: value.c, i: value.i };
  } catch {
    // falls through to the error below
  }
  throw new ApiError('VALIDATION_FAILED', 'Invalid nextToken');
}
