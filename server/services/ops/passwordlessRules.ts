/**
 * Passwordless (airdrop) accounts inside operations (spec 001 section 4, Airdrop). Such an account
 * exists for one link into one vault, as a CONTRIBUTOR or VIEWER: it never owns a vault, neither
 * one it creates nor one it is made OWNER of, so it never holds a storage allowance, members or
 * invitations of its own. The routes it may call are in server/http/passwordlessRoutes.ts.
 */
import { ApiError } from '../../../src/protocol/errors';
import { fromDbBool } from '../../db/dbBool';
import type { Db } from '../vaultRows';

export async function isPasswordless(db: Db, userId: string): Promise<boolean> {
  const row = await db.selectFrom('users').select('passwordless').where('id', '=', userId).executeTakeFirst();
  return row !== undefined && fromDbBool(row.passwordless);
}

/** Refuses vault ownership to a passwordless account (`message` says which act was refused). */
export async function assertMayOwnVaults(db: Db, userId: string, message: string): Promise<void> {
  if (await isPasswordless(db, userId)) throw new ApiError('FORBIDDEN', message);
}
