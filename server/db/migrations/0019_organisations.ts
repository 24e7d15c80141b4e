/**
 * Issue 22: organisations (spec 001 sections 3-6; SYNC_SPEC R124-R127). One organisation per
 * creator; every account belongs to at most one (`organisation_members.user_id` is unique), the
 * creator included, as an admin. The server keeps who belongs where and the branding of a
 * subdomain; it never joins anyone to a vault (that is the devices' signed member operations).
 * Append-only: never edit once shipped.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('organisations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    // Lower-case letters and digits; unique so a host names one organisation.
    .addColumn('subdomain', 'text', (c) => c.unique())
    // none | pending | done (R125): done once a request reached the server through the subdomain.
    .addColumn('subdomain_status', 'text', (c) => c.notNull())
    .addColumn('logo', 'text')
    .addColumn('primary_color', 'text')
    .addColumn('secondary_color', 'text')
    .addColumn('owner_user_id', 'text', (c) => c.notNull().unique().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema
    .createTable('organisation_members')
    .addColumn('organisation_id', 'text', (c) => c.notNull().references('organisations.id').onDelete('cascade'))
    .addColumn('user_id', 'text', (c) => c.primaryKey().references('users.id').onDelete('cascade'))
    // OWNER (an admin) or MEMBER.
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('invited_by_user_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('organisation_members_org').on('organisation_members').columns(['organisation_id', 'created_at']).execute();
}

export async function down(db: AnyDb): Promise<void> {
  await db.schema.dropTable('organisation_members').execute();
  await db.schema.dropTable('organisations').execute();
}
