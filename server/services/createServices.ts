import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { BlobStore } from '../blobs/BlobStore';
import type { Database } from '../db/Database';
import type { LedgerBus } from '../realtime/LedgerBus';
import type { NotificationBus } from '../realtime/NotificationBus';
import type { PokeBus } from '../realtime/PokeBus';
import type { MailPort } from '../mail/MailPort';
import type { SmsPort } from '../sms/SmsPort';
import { AccountService } from './AccountService';
import { ApiKeyService, type ApiKeyPolicy } from './ApiKeyService';
import { BlobService } from './BlobService';
import type { Clock } from './Clock';
import { EmailCodeService } from './EmailCodeService';
import { LedgerService, planSendPolicy } from './LedgerService';
import { type PriceLog, TokenPriceService } from './TokenPriceService';
import { LoginService } from './LoginService';
import { MemberService } from './MemberService';
import { OrganisationService } from './OrganisationService';
import { ReferralService } from './ReferralService';
import { NotificationService } from './NotificationService';
import { MfaService } from './MfaService';
import { OpaqueService } from './OpaqueService';
import { OperationService } from './OperationService';
import { PublicVaultService } from './PublicVaultService';
import { ReauthService } from './ReauthService';
import { RecoveryService } from './RecoveryService';
import { SessionService } from './SessionService';
import { type SignupPolicy, SignupService } from './SignupService';
import { StorageService } from './StorageService';
import { BillingService } from './BillingService';
import type { InvoiceIssuer } from './invoicePdf';
import { AllowanceService, withDefaultPlanFigures } from './AllowanceService';
import { DEFAULT_PLAN_CATALOG, defaultPlanOf, type PlanCatalog } from '../../src/protocol/plans';
import { SupportService } from './SupportService';
import { UserService } from './UserService';
import { VaultService } from './VaultService';
import { VaultImportService } from './VaultImportService';
import { WalletLoginService } from './WalletLoginService';
import { WebhookService } from '../webhooks/WebhookService';
import { allowedAddressList } from '../webhooks/webhookTarget';

export interface Services {
  users: UserService;
  sessions: SessionService;
  signup: SignupService;
  login: LoginService;
  mfa: MfaService;
  reauth: ReauthService;
  recovery: RecoveryService;
  account: AccountService;
  support: SupportService;
  vaults: VaultService;
  publicVaults: PublicVaultService;
  operations: OperationService;
  members: MemberService;
  notifications: NotificationService;
  blobs: BlobService;
  storage: StorageService;
  /** Each account's plan, allowances and limits (issue 21, SYNC_SPEC R100). */
  allowances: AllowanceService;
  /** Billing details and the upcoming invoice of checkout (issue 21, SYNC_SPEC R112-R114). */
  billing: BillingService;
  walletLogin: WalletLoginService;
  /** Imports of vaults' histories from elsewhere (SYNC_SPEC R91-R93). */
  imports: VaultImportService;
  /** The U token's ledger (SYNC_SPEC R105-R109). */
  ledger: LedgerService;
  /** The U token's dollar price (TOKEN_PRICE_URL, SYNC_SPEC R121). */
  tokenPrice: TokenPriceService;
  /** Organisations, their people and their subdomains (issue 22, SYNC_SPEC R124-R127). */
  organisations: OrganisationService;
  /** Referral links, invitations and rewards (issue 22, SYNC_SPEC R132-R134). */
  referrals: ReferralService;
  /** The account's webhook, its delivery log and the events that queue deliveries (issue 24). */
  webhooks: WebhookService;
  /** The account's API key and its usage (issue 24). */
  apiKeys: ApiKeyService;
}

export interface ServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  mailer: MailPort;
  /** null: no SMS provider (SMS two-factor is not offered). */
  sms: SmsPort | null;
  publicUrl: string;
  /** BASE_DOMAIN: organisations' subdomains are `{subdomain}.{baseDomain}`; default: PUBLIC_URL's host name. */
  baseDomain?: string;
  log: FastifyBaseLogger;
  blobStore: BlobStore;
  /** The operator's plans (PLANS_FILE); default: Pebble alone. */
  plans?: PlanCatalog;
  /** CLOUD_STORAGE_BYTES / PERMANENT_STORAGE_BYTES: the default plan's storage, replacing the plans' figure. */
  storageAllowances?: { cloud: number; permanent: number };
  /** Where accepted operations announce themselves (server/realtime). */
  pokes?: Pick<PokeBus, 'publish'>;
  /** Where written notifications go to their recipients' sockets (docs/SYNC_SPEC.md R31). */
  notificationBus?: Pick<NotificationBus, 'publish'>;
  /** MEMBER_LIMIT: the default plan's most live memberships per vault (null for none), replacing the plans' figure. */
  memberLimit?: number | null;
  /** SIGNUPS_ALLOWED and SIGNUP_EMAIL_DOMAINS; default: anyone may sign up. */
  signups?: SignupPolicy;
  /** INVOICE_ISSUER and INVOICE_PAYMENT_DETAILS: what the invoice PDFs say of the operator (R116). */
  invoiceIssuer?: InvoiceIssuer;
  /** The U token: TOKEN_REWARD_PER_MIB (default 1 U per MiB) and where balance changes go (R109). */
  /** API_KEY_REQUEST_LIMIT and API_KEY_PERIOD; default 100 a month. */
  apiKeys?: ApiKeyPolicy;
  token?: { rewardPerMiB?: number; bus?: Pick<LedgerBus, 'publish'>; priceUrl?: string | null; priceLog?: PriceLog };
  /** WEBHOOK_ALLOWED_ADDRESSES: addresses webhooks may reach although not public; default none. */
  webhookAllowedAddresses?: readonly string[];
}

/** Wires every service over one database. Loads (or creates) the OPAQUE server setup. */
export async function createServices(deps: ServiceDeps): Promise<Services> {
  const { db, clock, mailer, sms, publicUrl, log } = deps;
  const opaque = await OpaqueService.load(db, clock);
  const users = new UserService(db, clock);
  const sessions = new SessionService(db, clock);
  const codes = new EmailCodeService(db, clock);
  const reauth = new ReauthService(db, clock);
  const mfa = new MfaService(db, clock, users, sms, log);
  const login = new LoginService(users, opaque, sessions, mfa, reauth);
  const catalog = deps.plans ?? DEFAULT_PLAN_CATALOG;
  const fallback = defaultPlanOf(catalog);
  const allowances = new AllowanceService(
    db,
    withDefaultPlanFigures(
      catalog,
      deps.storageAllowances ?? { cloud: fallback.storage.cloud_bytes, permanent: fallback.storage.permanent_bytes },
      deps.memberLimit === undefined ? fallback.limits.members : deps.memberLimit,
    ),
  );
  const storage = new StorageService(db, clock, allowances);
  const notifications = new NotificationService(db, deps.notificationBus ?? null, mailer, publicUrl, log);
  const referrals = new ReferralService(db, clock, mailer, notifications, publicUrl, log);
  const webhooks = new WebhookService(db, clock, { allowed: allowedAddressList(deps.webhookAllowedAddresses ?? []), log });
  const operations = new OperationService(db, clock, deps.blobStore, deps.pokes, notifications, {
    log,
    storage,
    limits: allowances,
    onAccepted: (authorId, accepted) => webhooks.operationsAccepted(authorId, accepted),
  });
  const members = new MemberService(db, clock, operations, mailer, publicUrl, log, allowances, notifications);
  return {
    users,
    sessions,
    signup: new SignupService(users, opaque, codes, mailer, publicUrl, log, deps.signups, (userId) => referrals.rewardVerifiedSignup(userId)),
    login,
    mfa,
    reauth,
    recovery: new RecoveryService(db, users, opaque, codes, sessions, login, mailer, publicUrl),
    account: new AccountService(users, opaque, sessions, reauth, clock, db, deps.blobStore),
    support: new SupportService(db, clock),
    vaults: new VaultService(db, clock),
    publicVaults: new PublicVaultService(db, deps.blobStore),
    operations,
    members,
    notifications,
    blobs: new BlobService(db, clock, deps.blobStore, storage),
    storage,
    allowances,
    referrals,
    webhooks,
    apiKeys: new ApiKeyService(db, clock, users, deps.apiKeys),
    organisations: new OrganisationService(db, clock, allowances, members, mailer, log, { publicUrl, baseDomain: deps.baseDomain ?? new URL(publicUrl).hostname }),
    billing: new BillingService(db, clock, allowances, deps.invoiceIssuer),
    walletLogin: new WalletLoginService(db, clock, users, sessions),
    imports: new VaultImportService(db, clock, operations, storage),
    ledger: new LedgerService(db, clock, {
      key: await LedgerService.loadKey(db, clock),
      rewardPerMiB: deps.token?.rewardPerMiB ?? 1_000_000,
      sendPolicy: planSendPolicy(storage, allowances),
      ...(deps.token?.bus ? { bus: deps.token.bus } : {}),
    }),
    tokenPrice: new TokenPriceService(clock, deps.token?.priceUrl ?? null, undefined, deps.token?.priceLog ?? null),
  };
}
