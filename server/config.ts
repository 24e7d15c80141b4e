/**
 * Server configuration from environment variables. Every setting is listed in `SETTINGS`, and the
 * README's Configuration table, written by hand, names each one (config.test.ts checks); a bad
 * value stops the server with one line naming it.
 */
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { inspect } from 'node:util';
import { API_KEY_DEFAULT_LIMIT } from '../src/protocol/developers';
import { DEFAULT_PLAN_CATALOG, defaultPlanOf, PlanCatalog } from '../src/protocol/plans';
import type { S3Settings } from './blobs/S3BlobStore';
import { TWILIO_API_URL, type TwilioSettings } from './sms/TwilioSms';
import type { WebhookSettings } from './sms/WebhookSms';

export const LOG_LEVELS = ['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent'] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface Config {
  port: number;
  /** Absolute. */
  dataDir: string;
  /** A postgres:// URL, or null for SQLite at `sqlitePath`. */
  databaseUrl: string | null;
  sqlitePath: string;
  smtpUrl: string | null;
  /** The From of every mail (MAIL_FROM). */
  mailFrom: string;
  /** SIGNUPS_ALLOWED: false closes sign-up (existing accounts and invitations to them keep working). */
  signupsAllowed: boolean;
  /** SIGNUP_EMAIL_DOMAINS: only these (lower-case) domains may sign up; null: any. */
  signupEmailDomains: string[] | null;
  /** SMS_TO_FILES: text messages are written to DATA_DIR/sms (tests, development); false: no SMS provider, no SMS two-factor. */
  smsToFiles: boolean;
  /** SMS_PROVIDER: the real provider that sends two-factor codes (secrets masked when printed); null: none. */
  smsProvider: TwilioSettings | WebhookSettings | null;
  /** Origin used in e-mailed links, without a trailing slash. */
  publicUrl: string;
  /** Issue 22: organisations' white-label hosts are `{subdomain}.{baseDomain}` (lower case, no port). */
  baseDomain: string;
  arweaveGateway: string | null;
  /** Path to the relay wallet's JWK; null: DATA_DIR/arweave-wallet.json (created with the embedded arlocal). */
  arweaveWallet: string | null;
  /** Embedded arlocal (no ARWEAVE_GATEWAY): its port (null: a free one) and how often it mines. */
  arlocalPort: number | null;
  arlocalMineMs: number;
  /** SYNC_SPEC R84: a history run is made once its newest operation is this old (ms). */
  historySettleMs: number;
  /** ARWEAVE_RETRY_MAX_MS: the relay's longest wait before trying a failed gateway call again. */
  relayRetryMaxMs: number;
  /** CAIRN_RELAY: false makes this process never run the permanent relay (several processes, issue 20). */
  relay: boolean;
  maintenance: boolean;
  readOnly: boolean;
  seriousIssue: boolean;
  sunsetBannerUrl: string | null;
  /** Requests per minute per IP per rate-limited auth route (and per account on login and two-factor). */
  authRateLimit: number;
  /**
   * Fastify's `trustProxy`: false (use the socket's address), a hop count (trust that many proxies
   * nearest the server), true (trust every hop), or the addresses/CIDR ranges of the proxies.
   */
  trustProxy: boolean | number | string[];
  /**
   * The default plan's member limit: most live memberships (not revoked or rejected) a vault of an
   * account on it may have; null: no limit. MEMBER_LIMIT where set, else the plans' own figure.
   */
  memberLimit: number | null;
  /** TOKEN_REWARD_PER_MIB: millionths of a U credited per MiB of a committed permanent upload (SYNC_SPEC R107); 0: none. */
  tokenRewardPerMiB: number;
  /** API_KEY_REQUEST_LIMIT and API_KEY_PERIOD: requests an account's API key may make a period (issue 24). */
  apiKeys: { limit: number; period: 'day' | 'month' };
  /** TOKEN_PRICE_URL: a source answering {"usd": number}, the price of 1 U in dollars (SYNC_SPEC R121); null: no dollar value. */
  tokenPriceUrl: string | null;
  /**
   * WEBHOOK_ALLOWED_ADDRESSES: IP addresses and CIDR ranges webhooks may reach although they are
   * loopback, private, link-local or otherwise refused (server/webhooks/webhookTarget.ts); default none.
   */
  webhookAllowedAddresses: string[];
  /**
   * The default plan's bytes of cloud and permanent storage: CLOUD_STORAGE_BYTES and
   * PERMANENT_STORAGE_BYTES where set, else the plans' own figures (Pebble's 1 GB and 100 MB).
   */
  storageAllowances: { cloud: number; permanent: number };
  /** INVOICE_ISSUER and INVOICE_PAYMENT_DETAILS (lines split at ';'): who issues the invoice PDFs and how to pay them (R116). */
  invoiceIssuer: { name: string; paymentDetails: string[] };
  /** The operator's plans (PLANS_FILE; default: Pebble alone). `memberLimit` and `storageAllowances` override its default plan's figures. */
  plans: PlanCatalog;
  /** S3_BUCKET set: chunk bytes go to this bucket; null: files under DATA_DIR/blobs. */
  s3: S3Settings | null;
  logLevel: LogLevel;
  /** METRICS_TOKEN: GET /api/metrics answers with this Bearer token; null: the route is 404. */
  metricsToken: string | null;
  /**
   * Milliseconds added to the server's clock (expiries, sessions, TOTP). Tests only: an
   * end-to-end test restarts the server a day ahead to see an airdrop link end. 0 when unset.
   */
  testClockOffsetMs: number;
  /** The built client (`vite build` output). Served when it holds an index.html. */
  staticDir: string;
}

/** A setting with a bad value. The message is one line meant for the operator. */
export class ConfigError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'ConfigError';
  }
}

export interface SettingInfo {
  name: string;
  default: string;
  description: string;
}

/** Every environment variable the server reads, for the README table. */
export const SETTINGS: readonly SettingInfo[] = [
  { name: 'PORT', default: '8080', description: 'HTTP port serving the app, /api and /api/ws (integer 1-65535).' },
  { name: 'DATA_DIR', default: './data', description: 'Directory for the SQLite database, mail and SMS files.' },
  {
    name: 'DATABASE_URL',
    default: '(unset: SQLite at DATA_DIR/cairn.sqlite)',
    description: 'PostgreSQL connection URL (postgres:// or postgresql://) for several server processes.',
  },
  {
    name: 'SMTP_URL',
    default: '(unset: .eml files in DATA_DIR/mail)',
    description: 'SMTP server for outgoing mail, e.g. smtps://user:pass@smtp.example.com:465.',
  },
  { name: 'MAIL_FROM', default: 'Cairn <no-reply@cairn.local>', description: 'The From of every mail: an address, or a name and <address>.' },
  { name: 'SIGNUPS_ALLOWED', default: 'true', description: 'false: nobody can sign up (the sign-up page says sign-ups are closed); existing accounts keep working.' },
  {
    name: 'SIGNUP_EMAIL_DOMAINS',
    default: '(unset: any domain)',
    description: 'Comma list of e-mail domains (example.com,example.org) that may sign up; other addresses are refused.',
  },
  {
    name: 'SMS_TO_FILES',
    default: 'false',
    description: 'Tests and development only: text messages (two-factor codes) are written to DATA_DIR/sms. Without SMS_PROVIDER or this, SMS two-factor is not offered. Not with SMS_PROVIDER.',
  },
  {
    name: 'SMS_PROVIDER',
    default: '(unset: no SMS two-factor)',
    description: 'Sends two-factor codes by text message: twilio (the TWILIO_ settings) or webhook (SMS_WEBHOOK_URL). Unset: SMS two-factor is not offered.',
  },
  { name: 'TWILIO_ACCOUNT_SID', default: '(unset)', description: 'With SMS_PROVIDER=twilio: the account SID (AC followed by 32 hex digits).' },
  { name: 'TWILIO_AUTH_TOKEN', default: '(unset)', description: 'With SMS_PROVIDER=twilio: the auth token (never printed).' },
  {
    name: 'TWILIO_FROM',
    default: '(unset)',
    description: 'With SMS_PROVIDER=twilio: the sending number in international form (+15005550006); or set TWILIO_MESSAGING_SERVICE_SID instead.',
  },
  {
    name: 'TWILIO_MESSAGING_SERVICE_SID',
    default: '(unset)',
    description: 'With SMS_PROVIDER=twilio: a messaging service (MG followed by 32 hex digits) that picks the sender; instead of TWILIO_FROM.',
  },
  { name: 'TWILIO_API_URL', default: TWILIO_API_URL, description: "Twilio's API origin: a regional edge such as https://api.dublin.ie1.twilio.com, or a test server." },
  {
    name: 'SMS_WEBHOOK_URL',
    default: '(unset)',
    description: 'With SMS_PROVIDER=webhook: each text is POSTed here as JSON {"to":"+447700900123","text":"..."}; a 2xx answer means sent. https, or http to localhost only.',
  },
  { name: 'SMS_WEBHOOK_TOKEN', default: '(unset: no Authorization header)', description: 'With SMS_PROVIDER=webhook: sent as Authorization: Bearer <token> (never printed).' },
  {
    name: 'PUBLIC_URL',
    default: 'http://localhost:PORT',
    description: 'Public origin of the app, used in e-mailed links.',
  },
  {
    name: 'BASE_DOMAIN',
    default: "PUBLIC_URL's host name",
    description: 'Organisations are served branded at {subdomain}.BASE_DOMAIN (same scheme and port as PUBLIC_URL); needs a wildcard DNS record and certificate (docs/operations.md#white-label-subdomains).',
  },
  {
    name: 'ARWEAVE_GATEWAY',
    default: '(unset: an embedded arlocal)',
    description: 'Arweave gateway URL for permanent vaults. Unset: `npm start` runs a local arlocal gateway (development).',
  },
  {
    name: 'ARWEAVE_WALLET',
    default: '(unset: DATA_DIR/arweave-wallet.json)',
    description: "Path to the relay wallet's JWK file, which pays for permanent storage. Created (mode 600) with the embedded arlocal.",
  },
  { name: 'ARLOCAL_PORT', default: '(unset: a free port)', description: 'Port of the embedded arlocal gateway.' },
  { name: 'ARLOCAL_MINE_MS', default: '5000', description: 'The embedded arlocal mines a block this often (milliseconds).' },
  {
    name: 'HISTORY_SETTLE_MS',
    default: '3000',
    description: "A permanent vault's operations go to the network in runs; a run is made once its newest operation is this old (milliseconds).",
  },
  {
    name: 'ARWEAVE_RETRY_MAX_MS',
    default: '300000',
    description: 'After a gateway error the relay tries again, waiting longer each time up to this long (milliseconds).',
  },
  {
    name: 'CAIRN_RELAY',
    default: 'true',
    description: 'false: this process never posts to the permanent network. With several processes on one PostgreSQL, one relaying process at a time leads (an advisory lock); the others wait to take over.',
  },
  {
    name: 'CAIRN_MAINTENANCE',
    default: 'false',
    description: 'Maintenance mode: every /api route except health, config and support answers 503.',
  },
  {
    name: 'CAIRN_READ_ONLY',
    default: 'false',
    description: 'Read-only mode: account changes answer 403; login, logout and recovery still work.',
  },
  { name: 'CAIRN_SERIOUS_ISSUE', default: 'false', description: "Shows the 'We're having some issues' banner." },
  {
    name: 'CAIRN_SUNSET_BANNER_URL',
    default: '(unset: no banner)',
    description: 'Announcement link for the sunset banner on the login page.',
  },
  {
    name: 'AUTH_RATE_LIMIT',
    default: '20',
    description: 'Requests per minute per IP address to each sign-up, login, recovery, code and discount-code (checkout) route, and per account (e-mail) to login, two-factor, recovery and resend.',
  },
  {
    name: 'TRUST_PROXY',
    default: 'false',
    description:
      "Behind a reverse proxy: which hops' X-Forwarded-For to trust for the client address (rate limits). 0/false: none; 1 or a hop count: that many proxies nearest the server; a comma list of proxy addresses or CIDR ranges; true: every hop (only if the proxy overwrites X-Forwarded-For).",
  },
  {
    name: 'MEMBER_LIMIT',
    default: "(unset: the default plan's, none for Pebble)",
    description: "Most members (owner and invitations included) a vault of an account on the default plan may have; more answers 'You've hit the member limit'.",
  },
  {
    name: 'TOKEN_REWARD_PER_MIB',
    default: '1000000',
    description: 'U token credited to the uploader when a permanent upload is committed, in millionths of a U per MiB stored (1000000: 1 U per MiB); 0: no rewards.',
  },
  {
    name: 'API_KEY_REQUEST_LIMIT',
    default: '100',
    description: "Requests an account's API key may make in one period (API_KEY_PERIOD); past it they answer 429 until the next period starts.",
  },
  { name: 'API_KEY_PERIOD', default: 'month', description: 'The period API_KEY_REQUEST_LIMIT counts in: day or month (UTC calendar days or months).' },
  {
    name: 'TOKEN_PRICE_URL',
    default: '(unset: no dollar value)',
    description: 'Where the server reads the price of 1 U in US dollars, answering {"usd": 0.25}; asked at most every 30 s with a 5 s timeout. Unset or failing: the Rewards page says it cannot display the dollar value.',
  },
  {
    name: 'WEBHOOK_ALLOWED_ADDRESSES',
    default: '(unset: public addresses only)',
    description:
      'Comma list of IP addresses or CIDR ranges (127.0.0.1,10.0.0.0/8) webhooks may be sent to although they are loopback, private, link-local or metadata addresses, for tests and internal deployments. Unset: webhooks reach public addresses only.',
  },
  {
    name: 'CLOUD_STORAGE_BYTES',
    default: '1000000000',
    description: "Cloud storage of the default plan's accounts, in bytes (the free plan's 1 GB by default, or the plans file's figure).",
  },
  {
    name: 'PERMANENT_STORAGE_BYTES',
    default: '100000000',
    description: "Permanent storage of the default plan's accounts, in bytes (the free plan's 100 MB by default, or the plans file's figure).",
  },
  {
    name: 'PLANS_FILE',
    default: '(unset: one free plan, Pebble)',
    description:
      "Path to the plans file (JSON; docs/plans.example.json): each plan's prices, features, storage, vault and member limits. CLOUD_STORAGE_BYTES, PERMANENT_STORAGE_BYTES and MEMBER_LIMIT, where set, replace its default plan's figures.",
  },
  {
    name: 'INVOICE_ISSUER',
    default: 'Cairn',
    description: 'Who issues the invoices: the name (and address, if you like) at the top of every invoice PDF.',
  },
  {
    name: 'INVOICE_PAYMENT_DETAILS',
    default: '(unset: the invoice says to ask the issuer)',
    description: "How to pay an open invoice, printed on its PDF: lines separated by ';', e.g. 'Bank: Example Bank;IBAN: GB33 BUKB 2020 1555 5555 55'.",
  },
  {
    name: 'S3_BUCKET',
    default: '(unset: blobs in DATA_DIR/blobs)',
    description: 'Keeps chunk bytes in this S3 bucket (AWS S3, MinIO, R2 or another S3-compatible store) instead of DATA_DIR/blobs. The bucket must exist.',
  },
  { name: 'S3_ENDPOINT', default: '(unset: AWS S3)', description: "An S3-compatible server's URL, e.g. http://minio:9000." },
  { name: 'S3_REGION', default: 'us-east-1', description: "The bucket's region." },
  {
    name: 'S3_ACCESS_KEY_ID',
    default: "(unset: the AWS SDK's default credentials)",
    description: 'Access key for the bucket, with S3_SECRET_ACCESS_KEY. Unset: the environment, profile or instance role the AWS SDK finds.',
  },
  { name: 'S3_SECRET_ACCESS_KEY', default: '(unset)', description: 'Secret for S3_ACCESS_KEY_ID (never printed).' },
  { name: 'S3_FORCE_PATH_STYLE', default: 'false', description: 'true: bucket in the path (http://host/bucket/key), as MinIO and s3rver need; false: bucket in the host name.' },
  { name: 'S3_PREFIX', default: '(unset: none)', description: 'Keys start with this folder, so several deployments can share one bucket (letters, digits, _ and - segments joined by /).' },
  { name: 'LOG_LEVEL', default: 'info', description: `Log level: ${LOG_LEVELS.join(', ')}.` },
  {
    name: 'METRICS_TOKEN',
    default: '(unset: no metrics)',
    description: 'Serves Prometheus metrics at /api/metrics to requests with Authorization: Bearer <this token> (16 or more visible characters, never printed).',
  },
  {
    name: 'CAIRN_TEST_CLOCK_OFFSET_MS',
    default: '(unset: the real time)',
    description: 'Tests only: moves the server clock this many milliseconds ahead (expiries, sessions, codes).',
  },
];

/** Ten years: far enough ahead for any expiry a test needs to pass. */
const MAX_TEST_CLOCK_OFFSET_MS = 10 * 366 * 24 * 60 * 60 * 1000;

const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

type Env = Readonly<Record<string, string | undefined>>;

/** Parses the environment. Throws ConfigError on the first bad value. */
export function loadConfig(env: Env = process.env): Config {
  const read = (name: string): string | undefined => {
    const value = env[name]?.trim();
    // Compose files and shells often set a variable to '' to mean "unset".
    return value === undefined || value === '' ? undefined : value;
  };

  const port = parseInteger('PORT', read('PORT'), 8080, 1, 65_535);
  const dataDir = path.resolve(read('DATA_DIR') ?? './data');
  const databaseUrl = parseUrl('DATABASE_URL', read('DATABASE_URL'), ['postgres:', 'postgresql:']);
  const smtpUrl = parseUrl('SMTP_URL', read('SMTP_URL'), ['smtp:', 'smtps:']);
  const publicUrl = parseUrl('PUBLIC_URL', read('PUBLIC_URL'), ['http:', 'https:']) ?? `http://localhost:${port}`;
  const plans = parsePlansFile(read('PLANS_FILE'));
  const defaultPlan = defaultPlanOf(plans);

  return {
    port,
    dataDir,
    databaseUrl,
    sqlitePath: path.join(dataDir, 'cairn.sqlite'),
    smtpUrl,
    mailFrom: parseMailFrom(read('MAIL_FROM')),
    signupsAllowed: read('SIGNUPS_ALLOWED') === undefined ? true : parseBoolean('SIGNUPS_ALLOWED', read('SIGNUPS_ALLOWED')),
    signupEmailDomains: parseDomains(read('SIGNUP_EMAIL_DOMAINS')),
    smsToFiles: parseBoolean('SMS_TO_FILES', read('SMS_TO_FILES')),
    smsProvider: parseSmsProvider(read),
    publicUrl: publicUrl.replace(/\/+$/, ''),
    baseDomain: parseBaseDomain(read('BASE_DOMAIN'), publicUrl),
    arweaveGateway: parseUrl('ARWEAVE_GATEWAY', read('ARWEAVE_GATEWAY'), ['http:', 'https:']),
    arweaveWallet: read('ARWEAVE_WALLET') === undefined ? null : path.resolve(read('ARWEAVE_WALLET')!),
    arlocalPort: read('ARLOCAL_PORT') === undefined ? null : parseInteger('ARLOCAL_PORT', read('ARLOCAL_PORT'), 0, 1, 65_535),
    arlocalMineMs: parseInteger('ARLOCAL_MINE_MS', read('ARLOCAL_MINE_MS'), 5_000, 100, 3_600_000),
    historySettleMs: parseInteger('HISTORY_SETTLE_MS', read('HISTORY_SETTLE_MS'), 3_000, 0, 3_600_000),
    relayRetryMaxMs: parseInteger('ARWEAVE_RETRY_MAX_MS', read('ARWEAVE_RETRY_MAX_MS'), 300_000, 1_000, 86_400_000),
    relay: read('CAIRN_RELAY') === undefined ? true : parseBoolean('CAIRN_RELAY', read('CAIRN_RELAY')),
    maintenance: parseBoolean('CAIRN_MAINTENANCE', read('CAIRN_MAINTENANCE')),
    readOnly: parseBoolean('CAIRN_READ_ONLY', read('CAIRN_READ_ONLY')),
    seriousIssue: parseBoolean('CAIRN_SERIOUS_ISSUE', read('CAIRN_SERIOUS_ISSUE')),
    sunsetBannerUrl: parseUrl('CAIRN_SUNSET_BANNER_URL', read('CAIRN_SUNSET_BANNER_URL'), ['http:', 'https:']),
    authRateLimit: parseInteger('AUTH_RATE_LIMIT', read('AUTH_RATE_LIMIT'), 20, 1, 1_000_000),
    trustProxy: parseTrustProxy(read('TRUST_PROXY')),
    memberLimit: read('MEMBER_LIMIT') === undefined ? defaultPlan.limits.members : parseInteger('MEMBER_LIMIT', read('MEMBER_LIMIT'), 0, 1, 1_000_000),
    tokenRewardPerMiB: parseInteger('TOKEN_REWARD_PER_MIB', read('TOKEN_REWARD_PER_MIB'), 1_000_000, 0, 1_000_000_000_000),
    apiKeys: {
      limit: parseInteger('API_KEY_REQUEST_LIMIT', read('API_KEY_REQUEST_LIMIT'), API_KEY_DEFAULT_LIMIT, 1, 1_000_000_000),
      period: parseApiKeyPeriod(read('API_KEY_PERIOD')),
    },
    tokenPriceUrl: parseUrl('TOKEN_PRICE_URL', read('TOKEN_PRICE_URL'), ['http:', 'https:']),
    webhookAllowedAddresses: parseAddressList('WEBHOOK_ALLOWED_ADDRESSES', read('WEBHOOK_ALLOWED_ADDRESSES')),
    storageAllowances: {
      cloud: parseInteger('CLOUD_STORAGE_BYTES', read('CLOUD_STORAGE_BYTES'), defaultPlan.storage.cloud_bytes, 0, Number.MAX_SAFE_INTEGER),
      permanent: parseInteger('PERMANENT_STORAGE_BYTES', read('PERMANENT_STORAGE_BYTES'), defaultPlan.storage.permanent_bytes, 0, Number.MAX_SAFE_INTEGER),
    },
    plans,
    invoiceIssuer: {
      name: (read('INVOICE_ISSUER') ?? 'Cairn').slice(0, 200),
      paymentDetails: (read('INVOICE_PAYMENT_DETAILS') ?? '')
        .split(';')
        .map((line) => line.trim())
        .filter((line) => line.length > 0),
    },
    s3: parseS3(read),
    logLevel: parseLogLevel(read('LOG_LEVEL')),
    metricsToken: parseMetricsToken(read('METRICS_TOKEN')),
    testClockOffsetMs: parseInteger('CAIRN_TEST_CLOCK_OFFSET_MS', read('CAIRN_TEST_CLOCK_OFFSET_MS'), 0, 0, MAX_TEST_CLOCK_OFFSET_MS),
    staticDir: path.resolve(REPO_ROOT, read('CAIRN_CLIENT_DIR') || 'dist'),
  };
}

/** The plans file, read and checked once at start; a missing, unreadable or invalid file stops the server. */
function parsePlansFile(raw: string | undefined): PlanCatalog {
  if (raw === undefined) return DEFAULT_PLAN_CATALOG;
  const file = path.resolve(raw);
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch (error) {
    const reason = (error as NodeJS.ErrnoException).code === 'ENOENT' ? 'no such file' : (error as Error).message;
    throw new ConfigError(`Invalid PLANS_FILE "${raw}": ${reason}`);
  }
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch (error) {
    throw new ConfigError(`Invalid PLANS_FILE "${raw}": not JSON (${(error as Error).message})`);
  }
  const parsed = PlanCatalog.safeParse(json);
  if (!parsed.success) {
    // The first problem with its place in the file, on the one line a ConfigError is.
    const issue = parsed.error.issues[0]!;
    const where = issue.path.length ? issue.path.join('.') : '(top level)';
    throw new ConfigError(`Invalid PLANS_FILE "${raw}": ${where}: ${issue.message}`);
  }
  return parsed.data;
}

function parseInteger(name: string, raw: string | undefined, fallback: number, min: number, max: number): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value) || value < min || value > max) {
    throw new ConfigError(`Invalid ${name} "${raw}": expected an integer from ${min} to ${max}`);
  }
  return value;
}

const TRUE_WORDS = ['1', 'true', 'yes'];
const FALSE_WORDS = ['0', 'false', 'no'];

function parseApiKeyPeriod(raw: string | undefined): 'day' | 'month' {
  if (raw === undefined) return 'month';
  if (raw === 'day' || raw === 'month') return raw;
  throw new ConfigError(`Invalid API_KEY_PERIOD "${raw}": expected day or month`);
}

function parseBoolean(name: string, raw: string | undefined): boolean {
  if (raw === undefined) return false;
  const word = raw.toLowerCase();
  if (TRUE_WORDS.includes(word)) return true;
  if (FALSE_WORDS.includes(word)) return false;
  throw new ConfigError(`Invalid ${name} "${raw}": expected one of 1, 0, true, false, yes, no`);
}

function parseUrl(name: string, raw: string | undefined, protocols: string[]): string | null {
  if (raw === undefined) return null;
  const expected = `expected a ${protocols.map((p) => `${p}//`).join(' or ')} URL`;
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new ConfigError(`Invalid ${name} "${redactUrl(raw)}": ${expected}`);
  }
  if (!protocols.includes(url.protocol) || url.hostname === '') {
    throw new ConfigError(`Invalid ${name} "${redactUrl(raw)}": ${expected}`);
  }
  return raw;
}

/** Named ranges proxy-addr (Fastify's trustProxy) understands. */
const PROXY_RANGE_NAMES = ['loopback', 'linklocal', 'uniquelocal'];

function parseTrustProxy(raw: string | undefined): boolean | number | string[] {
  if (raw === undefined) return false;
  const word = raw.toLowerCase();
  if (word === 'true') return true;
  if (word === 'false') return false;
  // '1' is one hop, not "trust everything": with one proxy in front that is the address it saw,
  // where `true` would take the left-most X-Forwarded-For entry, which any client can write.
  if (/^\d+$/.test(raw)) {
    const hops = Number(raw);
    if (Number.isSafeInteger(hops) && hops <= 100) return hops === 0 ? false : hops;
  }
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every((entry) => PROXY_RANGE_NAMES.includes(entry.toLowerCase()) || isAddressOrRange(entry))) return entries;
  throw new ConfigError(
    `Invalid TRUST_PROXY "${raw}": expected 0, 1, true, false, a hop count, or a comma list of proxy IP addresses or CIDR ranges`,
  );
}

function parseAddressList(name: string, raw: string | undefined): string[] {
  if (raw === undefined || raw.trim() === '') return [];
  const entries = raw.split(',').map((entry) => entry.trim());
  if (entries.every(isAddressOrRange)) return entries;
  throw new ConfigError(`Invalid ${name} "${raw}": expected a comma list of IP addresses or CIDR ranges`);
}

function isAddressOrRange(entry: string): boolean {
  const [address = '', prefix, ...rest] = entry.split('/');
  const family = net.isIP(address);
  if (family === 0 || rest.length > 0) return false;
  if (prefix === undefined) return true;
  if (!/^\d{1,3}$/.test(prefix)) return false;
  return Number(prefix) <= (family === 4 ? 32 : 128);
}

const S3_NAMES = ['S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX'];
/** S3's bucket naming rules (3-63 lower-case letters, digits, dots and hyphens, a letter or digit at each end). */
const S3_BUCKET_PATTERN = /^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/;
/** A prefix is blob-key segments, so a key under it is still a plain path. */
const S3_PREFIX_PATTERN = /^[A-Za-z0-9_-]+(\/[A-Za-z0-9_-]+)*$/;

function parseS3(read: (name: string) => string | undefined): S3Settings | null {
  const bucket = read('S3_BUCKET');
  if (bucket === undefined) {
    // An S3 setting without a bucket would silently keep blobs on disk: say so instead.
    const stray = S3_NAMES.find((name) => read(name) !== undefined);
    if (stray) throw new ConfigError(`${stray} is set but S3_BUCKET is not: set S3_BUCKET to keep blobs in S3, or unset ${stray}`);
    return null;
  }
  if (!S3_BUCKET_PATTERN.test(bucket)) {
    throw new ConfigError(`Invalid S3_BUCKET "${bucket}": expected 3-63 lower-case letters, digits, dots and hyphens`);
  }
  const accessKeyId = read('S3_ACCESS_KEY_ID');
  const secretAccessKey = read('S3_SECRET_ACCESS_KEY');
  // The secret is never echoed: these messages go to logs.
  if ((accessKeyId === undefined) !== (secretAccessKey === undefined)) {
    throw new ConfigError('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together: set both, or neither for the AWS SDK\'s default credentials');
  }
  const region = read('S3_REGION') ?? 'us-east-1';
  if (!/^[a-z0-9-]{1,64}$/.test(region)) throw new ConfigError(`Invalid S3_REGION "${region}": expected a region name such as us-east-1`);
  const rawPrefix = read('S3_PREFIX')?.replace(/^\/+|\/+$/g, '');
  if (rawPrefix !== undefined && (!S3_PREFIX_PATTERN.test(rawPrefix) || rawPrefix.length > 200)) {
    throw new ConfigError(`Invalid S3_PREFIX "${read('S3_PREFIX')}": expected letters, digits, _ and - in segments joined by /`);
  }
  return {
    endpoint: parseUrl('S3_ENDPOINT', read('S3_ENDPOINT'), ['http:', 'https:']),
    bucket,
    region,
    credentials: accessKeyId !== undefined && secretAccessKey !== undefined ? maskedCredentials(accessKeyId, secretAccessKey) : null,
    forcePathStyle: parseBoolean('S3_FORCE_PATH_STYLE', read('S3_FORCE_PATH_STYLE')),
    prefix: rawPrefix ?? '',
  };
}

/**
 * The S3 key pair, whose secret prints as `***` (a logged or inspected config), while the AWS SDK
 * still reads `secretAccessKey` as a plain property.
 */
function maskedCredentials(accessKeyId: string, secretAccessKey: string): { accessKeyId: string; secretAccessKey: string } {
  return maskSecrets({ accessKeyId, secretAccessKey }, ['secretAccessKey']);
}

/**
 * A copy of `value` whose `secretKeys` print as `***` (a logged, JSON-encoded or inspected config),
 * while code still reads the real values as plain properties.
 */
function maskSecrets<T extends object>(value: T, secretKeys: (keyof T)[]): T {
  const masked = { ...value };
  for (const key of secretKeys) if (masked[key] !== null && masked[key] !== undefined) (masked as Record<keyof T, unknown>)[key] = '***';
  return Object.defineProperties(
    { ...value },
    {
      toJSON: { value: () => masked, enumerable: false },
      [inspect.custom]: { value: () => masked, enumerable: false },
    },
  );
}

const TWILIO_NAMES = ['TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM', 'TWILIO_MESSAGING_SERVICE_SID', 'TWILIO_API_URL'];
const WEBHOOK_NAMES = ['SMS_WEBHOOK_URL', 'SMS_WEBHOOK_TOKEN'];
/** E.164: a plus, a country code not starting with 0, at most 15 digits. */
const E164 = /^\+[1-9]\d{6,14}$/;
/** Twilio's auth tokens are 32 hex digits; an API key's secret is longer. Visible ASCII either way. */
const VISIBLE_TOKEN = /^[\x21-\x7e]{16,512}$/;

function parseSmsProvider(read: (name: string) => string | undefined): TwilioSettings | WebhookSettings | null {
  const raw = read('SMS_PROVIDER');
  const provider = raw?.toLowerCase();
  // Settings of a provider that is not chosen would silently do nothing: say so instead.
  const stray = (names: string[], hint: string) => {
    const name = names.find((n) => read(n) !== undefined);
    if (name) throw new ConfigError(`${name} is set but ${hint}`);
  };
  if (provider === undefined) {
    stray([...TWILIO_NAMES, ...WEBHOOK_NAMES], 'SMS_PROVIDER is not: set SMS_PROVIDER=twilio or SMS_PROVIDER=webhook to send text messages, or unset it');
    return null;
  }
  if (provider !== 'twilio' && provider !== 'webhook') throw new ConfigError(`Invalid SMS_PROVIDER "${raw}": expected twilio or webhook`);
  if (parseBoolean('SMS_TO_FILES', read('SMS_TO_FILES'))) {
    throw new ConfigError('SMS_TO_FILES and SMS_PROVIDER are both set: SMS_TO_FILES is for tests and development; unset it to send through the provider');
  }
  if (provider === 'webhook') {
    stray(TWILIO_NAMES, 'SMS_PROVIDER is webhook: unset it, or set SMS_PROVIDER=twilio');
    const url = read('SMS_WEBHOOK_URL');
    if (url === undefined) throw new ConfigError('SMS_PROVIDER=webhook needs SMS_WEBHOOK_URL (where each text message is POSTed)');
    parseUrl('SMS_WEBHOOK_URL', url, ['http:', 'https:']);
    const parsed = new URL(url);
    if (parsed.username || parsed.password) throw new ConfigError('Invalid SMS_WEBHOOK_URL: put the credential in SMS_WEBHOOK_TOKEN, not in the URL');
    // The body holds a login code: only across this machine may it travel in clear.
    if (parsed.protocol === 'http:' && !isLoopbackHost(parsed.hostname)) {
      throw new ConfigError(`Invalid SMS_WEBHOOK_URL "${redactUrl(url)}": expected an https:// URL (http:// only to localhost)`);
    }
    const token = read('SMS_WEBHOOK_TOKEN');
    if (token !== undefined && !/^[\x21-\x7e]{1,4096}$/.test(token)) throw new ConfigError('Invalid SMS_WEBHOOK_TOKEN: expected visible ASCII characters (no spaces)');
    return maskSecrets<WebhookSettings>({ provider: 'webhook', url, token: token ?? null }, ['token']);
  }
  stray(WEBHOOK_NAMES, 'SMS_PROVIDER is twilio: unset it, or set SMS_PROVIDER=webhook');
  const accountSid = read('TWILIO_ACCOUNT_SID');
  const authToken = read('TWILIO_AUTH_TOKEN');
  if (accountSid === undefined || authToken === undefined) {
    throw new ConfigError('SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN (from the Twilio console)');
  }
  if (!/^AC[0-9a-fA-F]{32}$/.test(accountSid)) throw new ConfigError(`Invalid TWILIO_ACCOUNT_SID "${accountSid}": expected AC followed by 32 hex digits`);
  // The token is a secret: the message never repeats it.
  if (!VISIBLE_TOKEN.test(authToken)) throw new ConfigError('Invalid TWILIO_AUTH_TOKEN: expected 16 or more visible ASCII characters (no spaces)');
  const from = read('TWILIO_FROM');
  const messagingServiceSid = read('TWILIO_MESSAGING_SERVICE_SID');
  if ((from === undefined) === (messagingServiceSid === undefined)) {
    throw new ConfigError('SMS_PROVIDER=twilio needs exactly one of TWILIO_FROM (the sending number) and TWILIO_MESSAGING_SERVICE_SID');
  }
  if (from !== undefined && !E164.test(from)) throw new ConfigError(`Invalid TWILIO_FROM "${from}": expected a number in international form, e.g. +15005550006`);
  if (messagingServiceSid !== undefined && !/^MG[0-9a-fA-F]{32}$/.test(messagingServiceSid)) {
    throw new ConfigError(`Invalid TWILIO_MESSAGING_SERVICE_SID "${messagingServiceSid}": expected MG followed by 32 hex digits`);
  }
  const apiUrl = parseUrl('TWILIO_API_URL', read('TWILIO_API_URL'), ['http:', 'https:']) ?? TWILIO_API_URL;
  const parsedApi = new URL(apiUrl);
  // Basic auth carries the token: never in clear beyond this machine.
  if (parsedApi.protocol === 'http:' && !isLoopbackHost(parsedApi.hostname)) {
    throw new ConfigError(`Invalid TWILIO_API_URL "${redactUrl(apiUrl)}": expected an https:// URL (http:// only to localhost)`);
  }
  if (parsedApi.username || parsedApi.password || parsedApi.search || parsedApi.hash) {
    throw new ConfigError(`Invalid TWILIO_API_URL "${redactUrl(apiUrl)}": expected an origin such as https://api.twilio.com`);
  }
  return maskSecrets<TwilioSettings>(
    {
      provider: 'twilio',
      apiUrl: apiUrl.replace(/\/+$/, ''),
      accountSid,
      authToken,
      sender: from !== undefined ? { from } : { messagingServiceSid: messagingServiceSid! },
    },
    ['authToken'],
  );
}

function isLoopbackHost(hostname: string): boolean {
  const host = hostname.toLowerCase();
  return host === 'localhost' || host.endsWith('.localhost') || host === '[::1]' || /^127\.\d+\.\d+\.\d+$/.test(host);
}

/** The From of mail until MAIL_FROM says otherwise. */
export const DEFAULT_MAIL_FROM = 'Cairn <no-reply@cairn.local>';

const MAIL_ADDRESS = /^[^\s@<>",;]+@[^\s@<>",;]+\.[^\s@<>",;]+$/;

function parseMailFrom(raw: string | undefined): string {
  if (raw === undefined) return DEFAULT_MAIL_FROM;
  // An address, or `Name <address>`; nothing that could end the header (CR, LF) or name a second address.
  const named = /^([^<>\r\n",;]*)<([^<>]+)>$/.exec(raw);
  const address = named ? named[2]!.trim() : raw;
  if (/[\r\n]/.test(raw) || !MAIL_ADDRESS.test(address)) {
    throw new ConfigError(`Invalid MAIL_FROM "${raw}": expected an e-mail address or Name <address>`);
  }
  return raw;
}

const DOMAIN = /^(?=.{1,253}$)([a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?\.)+[a-z0-9-]{2,63}$/;

function parseDomains(raw: string | undefined): string[] | null {
  if (raw === undefined) return null;
  const domains = raw.split(',').map((d) => d.trim().toLowerCase().replace(/^@/, ''));
  const bad = domains.find((d) => !DOMAIN.test(d));
  if (bad !== undefined) throw new ConfigError(`Invalid SIGNUP_EMAIL_DOMAINS "${raw}": "${bad}" is not a domain (expected e.g. example.com,example.org)`);
  return [...new Set(domains)];
}

function parseMetricsToken(raw: string | undefined): string | null {
  if (raw === undefined) return null;
  // The value is a secret: the message never repeats it.
  if (!/^[\x21-\x7e]{16,256}$/.test(raw)) throw new ConfigError('Invalid METRICS_TOKEN: expected 16 to 256 visible ASCII characters (no spaces)');
  return raw;
}

function parseLogLevel(raw: string | undefined): LogLevel {
  if (raw === undefined) return 'info';
  const level = LOG_LEVELS.find((l) => l === raw.toLowerCase());
  if (!level) throw new ConfigError(`Invalid LOG_LEVEL "${raw}": expected one of ${LOG_LEVELS.join(', ')}`);
  return level;
}

/** A URL safe to print: the password (database, SMTP) is replaced by `***`. */
export function redactUrl(raw: string): string {
  try {
    const url = new URL(raw);
    if (!url.password) return raw;
    url.password = '***';
    return url.toString();
  } catch {
    // Not parseable: hide anything that looks like user:pass@.
    return raw.replace(/\/\/[^@/]*@/, '//***@');
  }
}

/**
 * BASE_DOMAIN: a host name (letters, digits, hyphens and dots); unset, PUBLIC_URL's host name, or
 * 'localhost' when that is an IP address (which has no subdomains).
 */
function parseBaseDomain(value: string | undefined, publicUrl: string): string {
  if (value === undefined) {
    const host = new URL(publicUrl).hostname.toLowerCase().replace(/\.$/, '');
    return host.startsWith('[') || /^[\d.]+$/.test(host) ? 'localhost' : host;
  }
  const domain = value.toLowerCase().replace(/\.$/, '');
  if (!/^[a-z0-9]([a-z0-9-]*[a-z0-9])?(\.[a-z0-9]([a-z0-9-]*[a-z0-9])?)*$/.test(domain)) {
    throw new ConfigError(`Invalid BASE_DOMAIN "${value}": expected a host name like cairn.example.org`);
  }
  return domain;
}
