/**
 * How far a chunked bundle's post got (issue 18/19, SYNC_SPEC R66a): the number of its chunks, from
 * the first, that the gateway accepted. A post cut partway (gateway outage, server restart) resumes
 * at the first chunk not acknowledged instead of taking the gateway's knowledge of the header for
 * a finished post. Bundles recorded before this migration start at 0: a resume re-sends chunks the
 * gateway may have, which it accepts harmlessly. Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema.alterTable('storage_bundles').addColumn('chunks_accepted', 'integer', (c) => c.notNull().defaultTo(0)).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.alterTable('storage_bundles').dropColumn('chunks_accepted').execute();
}
