import { Migrator, type Kysely } from 'kysely';
import type { Database } from './Database';
import { MIGRATIONS } from './migrations';

/** Brings the schema to the latest migration. Throws with the failing migration's name. */
export async function migrateToLatest(db: Kysely<Database>): Promise<void> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => MIGRATIONS } });
  const { error, results } = await migrator.migrateToLatest();
  if (error) {
    const failed = results?.find((r) => r.status === 'Error')?.migrationName ?? 'unknown';
    const reason = error instanceof Error ? error.message : String(error);
    throw new Error(`Migration ${failed} failed: ${reason}`);
  }
}
