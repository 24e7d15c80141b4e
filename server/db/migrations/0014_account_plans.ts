/**
 * Issue 21, plans: each account's plan (`users.plan_id`, a plan id of the operator's plans file;
 * null: the file's default plan, which every account starts on). Set by `npm run admin -- plan`.
 * An id the file no longer has also means the default plan (AllowanceService), so removing a plan
 * from the file never locks anyone out. Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').addColumn('plan_id', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('users').dropColumn('plan_id').execute();
}
