/**
 * Accounts, sessions, login and code state, server secrets, support reports.
 * Append-only: never edit a migration that has shipped; add the next one instead.
 */
import type { Kysely } from 'kysely';

// `Kysely<any>`: a migration must not depend on today's table types, which later migrations change.
type AnyDb = Kysely<any>;

export async function up(db: AnyDb): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('email_verified', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('opaque_record', 'text', (c) => c.notNull())
    .addColumn('enc_backup_phrase', 'text', (c) => c.notNull())
    .addColumn('public_signing_key', 'text', (c) => c.notNull())
    .addColumn('public_encryption_key', 'text', (c) => c.notNull())
    .addColumn('address', 'text', (c) => c.notNull().unique())
    .addColumn('name', 'text')
    .addColumn('photo', 'text')
    .addColumn('mode', 'text', (c) => c.notNull().defaultTo('auto'))
    .addColumn('notifications', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('notify_on_upload', 'integer', (c) => c.notNull().defaultTo(1))
    .addColumn('onboarding', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('mfa_type', 'text')
    .addColumn('totp_secret', 'text')
    .addColumn('pending_totp_secret', 'text')
    .addColumn('totp_device', 'text')
    .addColumn('totp_last_step', 'bigint')
    .addColumn('phone_number', 'text')
    .addColumn('pending_phone', 'text')
    .addColumn('pending_phone_code_hash', 'text')
    .addColumn('pending_phone_expires_at', 'bigint')
    .addColumn('pending_phone_attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('passwordless', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('referral_id', 'text', (c) => c.notNull().unique())
    .addColumn('referrer_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('updated_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('sessions')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('persistent', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('sessions_user_id').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('opaque_logins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('server_login_state', 'text', (c) => c.notNull())
    .addColumn('session_hash', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('opaque_logins_expires_at').on('opaque_logins').column('expires_at').execute();

  await db.schema
    .createTable('email_tokens')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text', (c) => c.notNull())
    .addColumn('challenge', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    // One row per user and purpose: issuing a code replaces the previous one (latest-only).
    .addPrimaryKeyConstraint('email_tokens_pk', ['user_id', 'purpose'])
    .execute();

  await db.schema
    .createTable('mfa_challenges')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('mfa_type', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text')
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('keep_signed_in', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('mfa_challenges_user_id').on('mfa_challenges').column('user_id').execute();

  await db.schema
    .createTable('reauth_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('session_hash', 'text', (c) => c.notNull().references('sessions.token_hash').onDelete('cascade'))
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('reauth_tokens_user_id').on('reauth_tokens').column('user_id').execute();

  await db.schema
    .createTable('server_secrets')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('support_reports')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.references('users.id').onDelete('cascade'))
    .addColumn('action', 'text')
    .addColumn('error', 'text')
    .addColumn('context', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('path', 'text')
    .addColumn('created_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('support_reports_user_id').on('support_reports').column('user_id').execute();
}

export async function down(db: AnyDb): Promise<void> {
  for (const table of [
    'support_reports',
    'server_secrets',
    'reauth_tokens',
    'mfa_challenges',
    'email_tokens',
    'opaque_logins',
    'sessions',
    'users',
  ]) {
    await db.schema.dropTable(table).execute();
  }
}
