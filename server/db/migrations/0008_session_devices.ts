/**
 * Which device a session is (issue 26, SYNC_SPEC R80): when it was last used and the browser's
 * user agent, so Account > Security can list the signed-in devices. Both are null for sessions
 * made before this migration until their next request. Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sessions').addColumn('last_seen_at', 'bigint').execute();
  await db.schema.alterTable('sessions').addColumn('user_agent', 'text').execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('sessions').dropColumn('user_agent').execute();
  await db.schema.alterTable('sessions').dropColumn('last_seen_at').execute();
}
