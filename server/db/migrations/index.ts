import type { Migration } from 'kysely';
import * as m0001 from './0001_accounts';
import * as m0002 from './0002_vaults';
import * as m0003 from './0003_members';
import * as m0004 from './0004_notifications';
import * as m0005 from './0005_storage_transactions';
import * as m0006 from './0006_invitation_mails';
import * as m0007 from './0007_op_bytes';
import * as m0008 from './0008_session_devices';
import * as m0009 from './0009_bundle_post_progress';
import * as m0010 from './0010_vault_history';
import * as m0011 from './0011_vault_imports';
import * as m0012 from './0012_admin';
import * as m0013 from './0013_rate_limits';
import * as m0014 from './0014_account_plans';
import * as m0015 from './0015_ledger';
import * as m0016 from './0016_billing_details';
import * as m0017 from './0017_invoice_kinds';
import * as m0018 from './0018_claims';
import * as m0019 from './0019_organisations';
import * as m0020 from './0020_referrals';
import * as m0021 from './0021_nft_items';
import * as m0022 from './0022_api_keys';
import * as m0023 from './0023_webhooks';

/**
 * Every migration, in order. A static list rather than a folder scan so bundling and tsx behave
 * the same; append new entries, never reorder or rename.
 */
export const MIGRATIONS: Record<string, Migration> = {
  '0001_accounts': m0001,
  '0002_vaults': m0002,
  '0003_members': m0003,
  '0004_notifications': m0004,
  '0005_storage_transactions': m0005,
  '0006_invitation_mails': m0006,
  '0007_op_bytes': m0007,
  '0008_session_devices': m0008,
  '0009_bundle_post_progress': m0009,
  '0010_vault_history': m0010,
  '0011_vault_imports': m0011,
  '0012_admin': m0012,
  '0013_rate_limits': m0013,
  '0014_account_plans': m0014,
  '0015_ledger': m0015,
  '0016_billing_details': m0016,
  '0017_invoice_kinds': m0017,
  '0018_claims': m0018,
  '0019_organisations': m0019,
  '0020_referrals': m0020,
  '0021_nft_items': m0021,
  '0022_api_keys': m0022,
  '0023_webhooks': m0023,
};
