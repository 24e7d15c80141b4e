import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { inspect } from 'node:util';
import { describe, expect, it } from 'vitest';
import { ConfigError, loadConfig, SETTINGS } from './config';
import { offsetClock, systemClock } from './services/Clock';

function errorOf(env: Record<string, string>): string {
  try {
    loadConfig(env);
  } catch (error) {
    if (error instanceof ConfigError) return error.message;
    throw error;
  }
  throw new Error('expected a ConfigError');
}

describe('loadConfig', () => {
  it('has working defaults', () => {
    const config = loadConfig({});
    expect(config).toMatchObject({
      port: 8080,
      dataDir: path.resolve('./data'),
      databaseUrl: null,
      smtpUrl: null,
      publicUrl: 'http://localhost:8080',
      maintenance: false,
      readOnly: false,
      seriousIssue: false,
      sunsetBannerUrl: null,
      authRateLimit: 20,
      logLevel: 'info',
      testClockOffsetMs: 0,
    });
    expect(config.sqlitePath).toBe(path.join(path.resolve('./data'), 'cairn.sqlite'));
  });

  it('reads every setting', () => {
    const config = loadConfig({
      PORT: '9000',
      DATA_DIR: '/tmp/cairn-x',
      DATABASE_URL: 'postgresql://u:p@db:5432/cairn',
      SMTP_URL: 'smtps://u:p@mail.example.com:465',
      PUBLIC_URL: 'https://vault.example.com/',
      ARWEAVE_GATEWAY: 'http://localhost:1984',
      CAIRN_MAINTENANCE: 'yes',
      CAIRN_READ_ONLY: 'TRUE',
      CAIRN_SERIOUS_ISSUE: '1',
      CAIRN_SUNSET_BANNER_URL: 'https://example.com/news',
      AUTH_RATE_LIMIT: '5',
      MEMBER_LIMIT: '25',
      LOG_LEVEL: 'debug',
      CAIRN_TEST_CLOCK_OFFSET_MS: '172800000',
    });
    expect(config).toMatchObject({
      port: 9000,
      dataDir: '/tmp/cairn-x',
      databaseUrl: 'postgresql://u:p@db:5432/cairn',
      publicUrl: 'https://vault.example.com',
      arweaveGateway: 'http://localhost:1984',
      maintenance: true,
      readOnly: true,
      seriousIssue: true,
      sunsetBannerUrl: 'https://example.com/news',
      authRateLimit: 5,
      memberLimit: 25,
      logLevel: 'debug',
      testClockOffsetMs: 172_800_000,
    });
    expect(loadConfig({}).memberLimit).toBeNull();
    expect(loadConfig({ PORT: '1234' }).publicUrl).toBe('http://localhost:1234');
    // White-label hosts default to subdomains of PUBLIC_URL's host (acme.localhost works at once in browsers).
    expect(loadConfig({}).baseDomain).toBe('localhost');
    expect(loadConfig({ PUBLIC_URL: 'https://Vault.Example.org:8443' }).baseDomain).toBe('vault.example.org');
    // An IP address has no subdomains: the machine's own *.localhost then.
    expect(loadConfig({ PUBLIC_URL: 'http://[::1]:8080' }).baseDomain).toBe('localhost');
    expect(loadConfig({ PUBLIC_URL: 'http://192.168.1.20:8080' }).baseDomain).toBe('localhost');
    expect(loadConfig({ PUBLIC_URL: 'https://vault.example.org', BASE_DOMAIN: 'Teams.Example.org.' }).baseDomain).toBe('teams.example.org');
  });

  it('treats empty values as unset', () => {
    expect(loadConfig({ PORT: '', DATABASE_URL: ' ' }).port).toBe(8080);
  });

  it('rejects bad values with one line naming the setting', () => {
    expect(errorOf({ PORT: 'abc' })).toBe('Invalid PORT "abc": expected an integer from 1 to 65535');
    expect(errorOf({ PORT: '0' })).toBe('Invalid PORT "0": expected an integer from 1 to 65535');
    expect(errorOf({ PORT: '70000' })).toBe('Invalid PORT "70000": expected an integer from 1 to 65535');
    expect(errorOf({ PORT: '80.5' })).toBe('Invalid PORT "80.5": expected an integer from 1 to 65535');
    expect(errorOf({ CAIRN_MAINTENANCE: 'maybe' })).toBe(
      'Invalid CAIRN_MAINTENANCE "maybe": expected one of 1, 0, true, false, yes, no',
    );
    expect(errorOf({ AUTH_RATE_LIMIT: '-1' })).toBe('Invalid AUTH_RATE_LIMIT "-1": expected an integer from 1 to 1000000');
    expect(errorOf({ MEMBER_LIMIT: '0' })).toBe('Invalid MEMBER_LIMIT "0": expected an integer from 1 to 1000000');
    expect(errorOf({ CAIRN_TEST_CLOCK_OFFSET_MS: '-5' })).toBe(
      'Invalid CAIRN_TEST_CLOCK_OFFSET_MS "-5": expected an integer from 0 to 316224000000',
    );
    expect(errorOf({ LOG_LEVEL: 'loud' })).toMatch(/^Invalid LOG_LEVEL "loud": expected one of fatal, /);
    expect(errorOf({ PUBLIC_URL: 'ftp://x' })).toBe('Invalid PUBLIC_URL "ftp://x": expected a http:// or https:// URL');
    expect(errorOf({ CAIRN_SUNSET_BANNER_URL: 'not a url' })).toMatch(/^Invalid CAIRN_SUNSET_BANNER_URL /);
    expect(errorOf({ BASE_DOMAIN: 'acme.*.example' })).toBe('Invalid BASE_DOMAIN "acme.*.example": expected a host name like cairn.example.org');
    for (const message of [errorOf({ PORT: 'abc' }), errorOf({ LOG_LEVEL: 'x' })]) expect(message).not.toContain('\n');
  });

  it('moves the server clock only when CAIRN_TEST_CLOCK_OFFSET_MS is set', () => {
    expect(offsetClock(loadConfig({}).testClockOffsetMs)).toBe(systemClock);
    const ahead = offsetClock(loadConfig({ CAIRN_TEST_CLOCK_OFFSET_MS: '86400000' }).testClockOffsetMs);
    const before = Date.now();
    const now = ahead.now();
    expect(now - before).toBeGreaterThanOrEqual(86_400_000);
    expect(now - Date.now()).toBeLessThanOrEqual(86_400_000);
  });

  it('never prints a database or SMTP password', () => {
    const message = errorOf({ DATABASE_URL: 'mysql://admin:hunter2@db/cairn' });
    expect(message).toBe('Invalid DATABASE_URL "mysql://admin:***@db/cairn": expected a postgres:// or postgresql:// URL');
    expect(errorOf({ SMTP_URL: 'http://a:hunter2@x' })).not.toContain('hunter2');
  });

  it('reads the permanent storage settings and refuses a bad arlocal port or mining interval', () => {
    const config = loadConfig({ ARWEAVE_WALLET: 'wallet.json', ARLOCAL_PORT: '1985', ARLOCAL_MINE_MS: '250' });
    expect(config.arweaveWallet).toBe(path.resolve('wallet.json'));
    expect(config.arlocalPort).toBe(1985);
    expect(config.arlocalMineMs).toBe(250);
    expect(loadConfig({}).arlocalMineMs).toBe(5_000);
    expect(loadConfig({}).arlocalPort).toBeNull();
    expect(errorOf({ ARLOCAL_PORT: '70000' })).toContain('ARLOCAL_PORT');
    expect(errorOf({ ARLOCAL_MINE_MS: 'soon' })).toContain('ARLOCAL_MINE_MS');
  });

  it('[R84] reads HISTORY_SETTLE_MS, 3 s by default, and refuses a bad one', () => {
    expect(loadConfig({}).historySettleMs).toBe(3_000);
    expect(loadConfig({ HISTORY_SETTLE_MS: '0' }).historySettleMs).toBe(0);
    expect(errorOf({ HISTORY_SETTLE_MS: 'soon' })).toContain('HISTORY_SETTLE_MS');
    expect(SETTINGS.map((s) => s.name)).toContain('HISTORY_SETTLE_MS');
  });

  it('reads ARWEAVE_RETRY_MAX_MS, 5 minutes by default, and refuses a bad one', () => {
    expect(loadConfig({}).relayRetryMaxMs).toBe(300_000);
    expect(loadConfig({ ARWEAVE_RETRY_MAX_MS: '10000' }).relayRetryMaxMs).toBe(10_000);
    expect(errorOf({ ARWEAVE_RETRY_MAX_MS: '10' })).toContain('ARWEAVE_RETRY_MAX_MS');
    expect(errorOf({ ARWEAVE_RETRY_MAX_MS: 'later' })).toContain('ARWEAVE_RETRY_MAX_MS');
  });

  it('reads WEBHOOK_ALLOWED_ADDRESSES, none by default, and refuses anything but addresses and ranges', () => {
    expect(loadConfig({}).webhookAllowedAddresses).toEqual([]);
    expect(loadConfig({ WEBHOOK_ALLOWED_ADDRESSES: '127.0.0.1, 10.0.0.0/8,::1' }).webhookAllowedAddresses).toEqual(['127.0.0.1', '10.0.0.0/8', '::1']);
    expect(errorOf({ WEBHOOK_ALLOWED_ADDRESSES: 'localhost' })).toBe('Invalid WEBHOOK_ALLOWED_ADDRESSES "localhost": expected a comma list of IP addresses or CIDR ranges');
    expect(errorOf({ WEBHOOK_ALLOWED_ADDRESSES: '10.0.0.0/33' })).toContain('WEBHOOK_ALLOWED_ADDRESSES');
    expect(SETTINGS.map((s) => s.name)).toContain('WEBHOOK_ALLOWED_ADDRESSES');
  });

  it('reads the storage allowances, the free plan by default, and refuses a bad one', () => {
    expect(loadConfig({}).storageAllowances).toEqual({ cloud: 1_000_000_000, permanent: 100_000_000 });
    expect(loadConfig({ CLOUD_STORAGE_BYTES: '4000000000', PERMANENT_STORAGE_BYTES: '0' }).storageAllowances).toEqual({ cloud: 4_000_000_000, permanent: 0 });
    expect(errorOf({ CLOUD_STORAGE_BYTES: '1GB' })).toBe('Invalid CLOUD_STORAGE_BYTES "1GB": expected an integer from 0 to 9007199254740991');
    expect(errorOf({ PERMANENT_STORAGE_BYTES: '-1' })).toContain('PERMANENT_STORAGE_BYTES');
  });

  it('documents every setting it reads', () => {
    const names = SETTINGS.map((s) => s.name);
    for (const name of ['PORT', 'DATA_DIR', 'DATABASE_URL', 'SMTP_URL', 'PUBLIC_URL', 'ARWEAVE_GATEWAY', 'ARWEAVE_WALLET', 'ARLOCAL_PORT', 'ARLOCAL_MINE_MS', 'CAIRN_MAINTENANCE', 'CAIRN_READ_ONLY', 'CAIRN_SERIOUS_ISSUE', 'CAIRN_SUNSET_BANNER_URL', 'AUTH_RATE_LIMIT', 'MEMBER_LIMIT', 'CLOUD_STORAGE_BYTES', 'PERMANENT_STORAGE_BYTES', 'LOG_LEVEL', 'CAIRN_TEST_CLOCK_OFFSET_MS']) {
      expect(names).toContain(name);
    }
    for (const setting of SETTINGS) expect(setting.description.length).toBeGreaterThan(10);
  });
});

describe('PLANS_FILE (issue 21)', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cairn-plans-'));
  const example = JSON.parse(fs.readFileSync(path.join(import.meta.dirname, '..', 'docs', 'plans.example.json'), 'utf8'));
  /** A plans file holding `content` (JSON unless a string), and its path. */
  function plansFile(content: unknown): string {
    const file = path.join(dir, `${Math.random().toString(36).slice(2)}.json`);
    fs.writeFileSync(file, typeof content === 'string' ? content : JSON.stringify(content));
    return file;
  }

  it("[R100] without a file: Pebble alone, the spec's 100 MB permanent and 1 GB cloud, no vault or member limit", () => {
    const { plans, storageAllowances, memberLimit } = loadConfig({});
    expect(plans.default_plan).toBe('pebble');
    expect(plans.plans.map((p) => [p.id, p.name, p.storage, p.limits])).toEqual([
      ['pebble', 'Pebble', { permanent_bytes: 100_000_000, cloud_bytes: 1_000_000_000 }, { vaults: null, members: null }],
    ]);
    expect(storageAllowances).toEqual({ cloud: 1_000_000_000, permanent: 100_000_000 });
    expect(memberLimit).toBeNull();
    expect(SETTINGS.map((s) => s.name)).toContain('PLANS_FILE');
  });

  it('[R100] reads the example file; its default plan gives the figures, which CLOUD_STORAGE_BYTES, PERMANENT_STORAGE_BYTES and MEMBER_LIMIT replace where set', () => {
    const file = plansFile(example);
    const config = loadConfig({ PLANS_FILE: file });
    expect(config.plans.plans.map((p) => p.id)).toEqual(['pebble', 'boulder']);
    expect(config.plans.sunset_notice).toBe(false);
    expect(config.storageAllowances).toEqual({ cloud: 1_000_000_000, permanent: 100_000_000 });
    expect(config.memberLimit).toBe(5);
    const set = loadConfig({ PLANS_FILE: file, CLOUD_STORAGE_BYTES: '42', PERMANENT_STORAGE_BYTES: '7', MEMBER_LIMIT: '9' });
    expect(set.storageAllowances).toEqual({ cloud: 42, permanent: 7 });
    expect(set.memberLimit).toBe(9);
    // The sunset notice is on unless the file turns it off.
    const { sunset_notice: _off, ...withoutNotice } = example;
    expect(loadConfig({ PLANS_FILE: plansFile(withoutNotice) }).plans.sunset_notice).toBe(true);
  });

  it('[R100] a missing file, a file that is not JSON and one that fails the schema stop the server with one line naming PLANS_FILE', () => {
    const missing = path.join(dir, 'nope.json');
    expect(errorOf({ PLANS_FILE: missing })).toBe(`Invalid PLANS_FILE "${missing}": no such file`);
    const broken = plansFile('{"plans": [');
    expect(errorOf({ PLANS_FILE: broken })).toMatch(new RegExp(`^Invalid PLANS_FILE "${broken}": not JSON`));
    const withPlan = (change: (plan: Record<string, any>) => void, top: Record<string, unknown> = {}) => {
      const copy = structuredClone(example);
      change(copy.plans[0]);
      return plansFile({ ...copy, ...top });
    };
    expect(errorOf({ PLANS_FILE: withPlan((p) => (p.limits.vaults = 0)) })).toMatch(/^Invalid PLANS_FILE ".*": plans\.0\.limits\.vaults: /);
    expect(errorOf({ PLANS_FILE: withPlan((p) => delete p.price.currency_options.gbp) })).toMatch(/plans\.0\.price\.currency_options\.gbp/);
    expect(errorOf({ PLANS_FILE: withPlan((p) => (p.storage.cloud_bytes = '1GB')) })).toMatch(/plans\.0\.storage\.cloud_bytes/);
    expect(errorOf({ PLANS_FILE: withPlan(() => {}, { default_plan: 'granite' }) })).toContain('default_plan: no plan has the id "granite"');
    expect(errorOf({ PLANS_FILE: withPlan(() => {}, { default_plan: 'boulder' }) })).toContain('the default plan "boulder" must be free');
    expect(errorOf({ PLANS_FILE: withPlan((p) => (p.id = 'boulder')) })).toContain('plan id "boulder" is used twice');
    expect(errorOf({ PLANS_FILE: withPlan((p) => (p.metadata.app_features = 'a; b')) })).toMatch(/plans\.0\.metadata\.app_features/);
    expect(errorOf({ PLANS_FILE: plansFile({ ...example, extra: 1 }) })).toContain('PLANS_FILE');
  });

  it('[R118] top-up prices and limits are read from the file, optional, and checked', () => {
    const config = loadConfig({ PLANS_FILE: plansFile(example) });
    expect(config.plans.topup_prices).toEqual(example.topup_prices);
    expect(config.plans.plans.map((p) => p.limits.topup_gb)).toEqual([10, 1000]);
    const { topup_prices: _prices, ...withoutPrices } = example;
    expect(loadConfig({ PLANS_FILE: plansFile(withoutPrices) }).plans.topup_prices).toBeUndefined();
    expect(errorOf({ PLANS_FILE: plansFile({ ...example, topup_prices: { ...example.topup_prices, cloud_gb: { eur: 50, usd: 0, gbp: 40 } } }) })).toMatch(
      /topup_prices\.cloud_gb\.usd/,
    );
    expect(errorOf({ PLANS_FILE: plansFile({ ...example, topup_prices: { cloud_gb: example.topup_prices.cloud_gb } }) })).toMatch(/topup_prices\.permanent_gb/);
    const copy = structuredClone(example);
    copy.plans[0].limits.topup_gb = 0;
    expect(errorOf({ PLANS_FILE: plansFile(copy) })).toMatch(/plans\.0\.limits\.topup_gb/);
  });
});

describe('CAIRN_RELAY (issue 20)', () => {
  it('relays by default; 0 or false turns the relay off in this process; a bad value names the setting', () => {
    expect(loadConfig({}).relay).toBe(true);
    for (const off of ['0', 'false', 'NO']) expect(loadConfig({ CAIRN_RELAY: off }).relay).toBe(false);
    expect(loadConfig({ CAIRN_RELAY: '1' }).relay).toBe(true);
    expect(errorOf({ CAIRN_RELAY: 'maybe' })).toContain('CAIRN_RELAY');
    expect(SETTINGS.map((s) => s.name)).toContain('CAIRN_RELAY');
  });
});

describe('TRUST_PROXY (issue 18)', () => {
  it('reads off, a hop count, true, or a list of proxy addresses and ranges', () => {
    expect(loadConfig({}).trustProxy).toBe(false);
    for (const off of ['0', 'false', 'FALSE']) expect(loadConfig({ TRUST_PROXY: off }).trustProxy).toBe(false);
    expect(loadConfig({ TRUST_PROXY: 'true' }).trustProxy).toBe(true);
    // 1 is one hop (the proxy in front), not "believe every X-Forwarded-For entry".
    expect(loadConfig({ TRUST_PROXY: '1' }).trustProxy).toBe(1);
    expect(loadConfig({ TRUST_PROXY: '2' }).trustProxy).toBe(2);
    expect(loadConfig({ TRUST_PROXY: '10.0.0.2, 192.168.0.0/16,::1,fd00::/8,loopback' }).trustProxy).toEqual([
      '10.0.0.2',
      '192.168.0.0/16',
      '::1',
      'fd00::/8',
      'loopback',
    ]);
    expect(SETTINGS.map((s) => s.name)).toContain('TRUST_PROXY');
  });

  it('refuses anything else with one line naming the setting', () => {
    const expected = 'expected 0, 1, true, false, a hop count, or a comma list of proxy IP addresses or CIDR ranges';
    for (const bad of ['yes please', '10.0.0.300', '10.0.0.0/33', 'fd00::/129', '10.0.0.1,', '-1', 'proxy.example.com']) {
      expect(errorOf({ TRUST_PROXY: bad })).toBe(`Invalid TRUST_PROXY "${bad}": ${expected}`);
    }
  });
});

describe('S3 blob store settings (issue 20)', () => {
  const valid = { S3_BUCKET: 'cairn-blobs', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE', S3_SECRET_ACCESS_KEY: 'very-secret-key' };

  it('keeps blobs on disk unless S3_BUCKET is set, and reads every S3 setting', () => {
    expect(loadConfig({}).s3).toBeNull();
    expect(loadConfig({ S3_BUCKET: 'cairn-blobs' }).s3).toEqual({
      endpoint: null,
      bucket: 'cairn-blobs',
      region: 'us-east-1',
      credentials: null,
      forcePathStyle: false,
      prefix: '',
    });
    expect(
      loadConfig({ ...valid, S3_ENDPOINT: 'http://minio:9000', S3_REGION: 'eu-west-3', S3_FORCE_PATH_STYLE: 'true', S3_PREFIX: '/team-a/blobs/' }).s3,
    ).toEqual({
      endpoint: 'http://minio:9000',
      bucket: 'cairn-blobs',
      region: 'eu-west-3',
      credentials: { accessKeyId: 'AKIAEXAMPLE', secretAccessKey: 'very-secret-key' },
      forcePathStyle: true,
      prefix: 'team-a/blobs',
    });
    const names = SETTINGS.map((s) => s.name);
    for (const name of ['S3_BUCKET', 'S3_ENDPOINT', 'S3_REGION', 'S3_ACCESS_KEY_ID', 'S3_SECRET_ACCESS_KEY', 'S3_FORCE_PATH_STYLE', 'S3_PREFIX']) {
      expect(names).toContain(name);
    }
  });

  it('refuses invalid combinations at start with one line, never printing the secret', () => {
    expect(errorOf({ S3_ENDPOINT: 'http://minio:9000' })).toBe(
      'S3_ENDPOINT is set but S3_BUCKET is not: set S3_BUCKET to keep blobs in S3, or unset S3_ENDPOINT',
    );
    expect(errorOf({ S3_SECRET_ACCESS_KEY: 'very-secret-key' })).toContain('S3_BUCKET is not');
    const half = errorOf({ S3_BUCKET: 'cairn-blobs', S3_SECRET_ACCESS_KEY: 'very-secret-key' });
    expect(half).toContain('S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY go together');
    expect(half).not.toContain('very-secret-key');
    expect(errorOf({ S3_BUCKET: 'cairn-blobs', S3_ACCESS_KEY_ID: 'AKIAEXAMPLE' })).toContain('go together');
    expect(errorOf({ S3_BUCKET: 'Cairn_Blobs' })).toBe('Invalid S3_BUCKET "Cairn_Blobs": expected 3-63 lower-case letters, digits, dots and hyphens');
    expect(errorOf({ ...valid, S3_ENDPOINT: 'minio:9000' })).toContain('Invalid S3_ENDPOINT');
    expect(errorOf({ ...valid, S3_FORCE_PATH_STYLE: 'maybe' })).toContain('Invalid S3_FORCE_PATH_STYLE');
    expect(errorOf({ ...valid, S3_PREFIX: '../other' })).toContain('Invalid S3_PREFIX');
    expect(errorOf({ ...valid, S3_REGION: 'EU West' })).toContain('Invalid S3_REGION');
  });

  it('masks the secret access key when the configuration is printed', () => {
    const config = loadConfig(valid);
    expect(config.s3?.credentials?.secretAccessKey).toBe('very-secret-key');
    expect(JSON.stringify(config)).not.toContain('very-secret-key');
    expect(inspect(config, { depth: 10 })).not.toContain('very-secret-key');
    expect(JSON.stringify(config)).toContain('AKIAEXAMPLE');
  });
});

describe('METRICS_TOKEN (issue 20)', () => {
  it('is off by default, read when set, and refused when short or spaced without printing it', () => {
    expect(loadConfig({}).metricsToken).toBeNull();
    expect(loadConfig({ METRICS_TOKEN: 'a-long-enough-token-1234' }).metricsToken).toBe('a-long-enough-token-1234');
    for (const bad of ['short-secret', 'has a space in the token value']) {
      const message = errorOf({ METRICS_TOKEN: bad });
      expect(message).toMatch(/^Invalid METRICS_TOKEN: /);
      expect(message).not.toContain(bad);
    }
    expect(SETTINGS.map((s) => s.name)).toContain('METRICS_TOKEN');
  });
});

describe("operator's settings (issue 20)", () => {
  it('reads MAIL_FROM, no-reply@cairn.local by default, and refuses one that is not an address or could break the header', () => {
    expect(loadConfig({}).mailFrom).toBe('Cairn <no-reply@cairn.local>');
    expect(loadConfig({ MAIL_FROM: 'Team Vault <vault@example.com>' }).mailFrom).toBe('Team Vault <vault@example.com>');
    expect(loadConfig({ MAIL_FROM: 'vault@example.com' }).mailFrom).toBe('vault@example.com');
    for (const bad of ['vault', 'Team <vault>', 'a@example.com, b@example.com', 'A <a@example.com>\r\nBcc: x@example.com']) {
      expect(errorOf({ MAIL_FROM: bad })).toMatch(/^Invalid MAIL_FROM ".*": expected an e-mail address or Name <address>$/s);
    }
  });

  it('reads SIGNUPS_ALLOWED (true by default) and SIGNUP_EMAIL_DOMAINS (any by default)', () => {
    expect(loadConfig({})).toMatchObject({ signupsAllowed: true, signupEmailDomains: null });
    expect(loadConfig({ SIGNUPS_ALLOWED: 'false' }).signupsAllowed).toBe(false);
    expect(loadConfig({ SIGNUPS_ALLOWED: '1' }).signupsAllowed).toBe(true);
    expect(errorOf({ SIGNUPS_ALLOWED: 'maybe' })).toBe('Invalid SIGNUPS_ALLOWED "maybe": expected one of 1, 0, true, false, yes, no');
    expect(loadConfig({ SIGNUP_EMAIL_DOMAINS: 'Example.com, @example.org,example.com' }).signupEmailDomains).toEqual(['example.com', 'example.org']);
    for (const bad of ['example', 'example.com,,example.org', 'exa mple.com', 'user@example.com']) {
      expect(errorOf({ SIGNUP_EMAIL_DOMAINS: bad })).toMatch(/^Invalid SIGNUP_EMAIL_DOMAINS/);
    }
  });

  it('writes text messages to files only when SMS_TO_FILES says so', () => {
    expect(loadConfig({}).smsToFiles).toBe(false);
    expect(loadConfig({ SMS_TO_FILES: '1' }).smsToFiles).toBe(true);
    expect(errorOf({ SMS_TO_FILES: 'files' })).toContain('SMS_TO_FILES');
  });

  it('documents the new settings', () => {
    const names = SETTINGS.map((s) => s.name);
    for (const name of ['MAIL_FROM', 'SIGNUPS_ALLOWED', 'SIGNUP_EMAIL_DOMAINS', 'SMS_TO_FILES']) expect(names).toContain(name);
  });
});

describe('SMS provider settings (issue 20)', () => {
  const sid = `AC${'0123456789abcdef'.repeat(2)}`;
  const token = 'f00dfeedcafe1234f00dfeedcafe1234';
  const service = `MG${'fedcba9876543210'.repeat(2)}`;
  const twilio = { SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: sid, TWILIO_AUTH_TOKEN: token };

  it('reads Twilio with a sending number or a messaging service, and the API URL', () => {
    expect(loadConfig({}).smsProvider).toBeNull();
    expect(loadConfig({ ...twilio, TWILIO_FROM: '+15005550006' }).smsProvider).toEqual({
      provider: 'twilio',
      apiUrl: 'https://api.twilio.com',
      accountSid: sid,
      authToken: token,
      sender: { from: '+15005550006' },
    });
    expect(loadConfig({ ...twilio, SMS_PROVIDER: 'Twilio', TWILIO_MESSAGING_SERVICE_SID: service, TWILIO_API_URL: 'https://api.dublin.ie1.twilio.com/' }).smsProvider).toMatchObject({
      apiUrl: 'https://api.dublin.ie1.twilio.com',
      sender: { messagingServiceSid: service },
    });
    expect(loadConfig({ ...twilio, TWILIO_FROM: '+15005550006', TWILIO_API_URL: 'http://127.0.0.1:4010' }).smsProvider).toMatchObject({ apiUrl: 'http://127.0.0.1:4010' });
  });

  it('reads the webhook with and without a token; http only to localhost', () => {
    expect(loadConfig({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example.com/send', SMS_WEBHOOK_TOKEN: 'relay-token' }).smsProvider).toEqual({
      provider: 'webhook',
      url: 'https://sms.example.com/send',
      token: 'relay-token',
    });
    expect(loadConfig({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'http://localhost:9000/sms' }).smsProvider).toEqual({
      provider: 'webhook',
      url: 'http://localhost:9000/sms',
      token: null,
    });
  });

  it('refuses missing and contradictory settings with one line naming them', () => {
    expect(errorOf({ SMS_PROVIDER: 'nexmo' })).toBe('Invalid SMS_PROVIDER "nexmo": expected twilio or webhook');
    expect(errorOf({ SMS_TO_FILES: '1', SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example.com' })).toBe(
      'SMS_TO_FILES and SMS_PROVIDER are both set: SMS_TO_FILES is for tests and development; unset it to send through the provider',
    );
    // Settings of a provider that is not chosen would do nothing: the operator is told.
    expect(errorOf({ TWILIO_ACCOUNT_SID: sid })).toBe(
      'TWILIO_ACCOUNT_SID is set but SMS_PROVIDER is not: set SMS_PROVIDER=twilio or SMS_PROVIDER=webhook to send text messages, or unset it',
    );
    expect(errorOf({ SMS_WEBHOOK_URL: 'https://sms.example.com' })).toContain('SMS_WEBHOOK_URL is set but SMS_PROVIDER is not');
    expect(errorOf({ ...twilio, TWILIO_FROM: '+15005550006', SMS_WEBHOOK_URL: 'https://sms.example.com' })).toBe(
      'SMS_WEBHOOK_URL is set but SMS_PROVIDER is twilio: unset it, or set SMS_PROVIDER=webhook',
    );
    expect(errorOf({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example.com', TWILIO_FROM: '+15005550006' })).toContain('TWILIO_FROM is set but SMS_PROVIDER is webhook');

    expect(errorOf({ SMS_PROVIDER: 'twilio', TWILIO_ACCOUNT_SID: sid })).toBe(
      'SMS_PROVIDER=twilio needs TWILIO_ACCOUNT_SID and TWILIO_AUTH_TOKEN (from the Twilio console)',
    );
    expect(errorOf(twilio)).toBe('SMS_PROVIDER=twilio needs exactly one of TWILIO_FROM (the sending number) and TWILIO_MESSAGING_SERVICE_SID');
    expect(errorOf({ ...twilio, TWILIO_FROM: '+15005550006', TWILIO_MESSAGING_SERVICE_SID: service })).toContain('exactly one of');
    expect(errorOf({ ...twilio, TWILIO_ACCOUNT_SID: 'AC123', TWILIO_FROM: '+15005550006' })).toBe('Invalid TWILIO_ACCOUNT_SID "AC123": expected AC followed by 32 hex digits');
    expect(errorOf({ ...twilio, TWILIO_FROM: '5005550006' })).toBe('Invalid TWILIO_FROM "5005550006": expected a number in international form, e.g. +15005550006');
    expect(errorOf({ ...twilio, TWILIO_MESSAGING_SERVICE_SID: 'MG1' })).toContain('Invalid TWILIO_MESSAGING_SERVICE_SID');
    expect(errorOf({ ...twilio, TWILIO_FROM: '+15005550006', TWILIO_API_URL: 'http://api.twilio.com' })).toBe(
      'Invalid TWILIO_API_URL "http://api.twilio.com": expected an https:// URL (http:// only to localhost)',
    );
    expect(errorOf({ ...twilio, TWILIO_FROM: '+15005550006', TWILIO_API_URL: 'twilio' })).toContain('Invalid TWILIO_API_URL');

    expect(errorOf({ SMS_PROVIDER: 'webhook' })).toBe('SMS_PROVIDER=webhook needs SMS_WEBHOOK_URL (where each text message is POSTed)');
    expect(errorOf({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'http://sms.example.com/send' })).toBe(
      'Invalid SMS_WEBHOOK_URL "http://sms.example.com/send": expected an https:// URL (http:// only to localhost)',
    );
    expect(errorOf({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'ftp://sms.example.com' })).toContain('Invalid SMS_WEBHOOK_URL');
    expect(errorOf({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://relay:pw@sms.example.com' })).toBe(
      'Invalid SMS_WEBHOOK_URL: put the credential in SMS_WEBHOOK_TOKEN, not in the URL',
    );
  });

  it('never prints the auth token or the webhook token, in an error or a printed configuration', () => {
    const short = errorOf({ ...twilio, TWILIO_AUTH_TOKEN: 'tiny secret', TWILIO_FROM: '+15005550006' });
    expect(short).toBe('Invalid TWILIO_AUTH_TOKEN: expected 16 or more visible ASCII characters (no spaces)');
    const spaced = errorOf({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example.com', SMS_WEBHOOK_TOKEN: 'has a space' });
    expect(spaced).toBe('Invalid SMS_WEBHOOK_TOKEN: expected visible ASCII characters (no spaces)');

    const withTwilio = loadConfig({ ...twilio, TWILIO_FROM: '+15005550006' });
    expect(withTwilio.smsProvider).toMatchObject({ authToken: token });
    const withWebhook = loadConfig({ SMS_PROVIDER: 'webhook', SMS_WEBHOOK_URL: 'https://sms.example.com', SMS_WEBHOOK_TOKEN: 'relay-token-secret' });
    for (const printed of [JSON.stringify(withTwilio), inspect(withTwilio, { depth: 10 }), JSON.stringify(withWebhook), inspect(withWebhook, { depth: 10 })]) {
      expect(printed).not.toContain(token);
      expect(printed).not.toContain('relay-token-secret');
    }
    expect(JSON.stringify(withTwilio)).toContain(sid);
  });

  it('documents every SMS setting', () => {
    const names = SETTINGS.map((s) => s.name);
    for (const name of ['SMS_PROVIDER', 'TWILIO_ACCOUNT_SID', 'TWILIO_AUTH_TOKEN', 'TWILIO_FROM', 'TWILIO_MESSAGING_SERVICE_SID', 'TWILIO_API_URL', 'SMS_WEBHOOK_URL', 'SMS_WEBHOOK_TOKEN']) {
      expect(names).toContain(name);
    }
  });
});

describe('API_KEY_REQUEST_LIMIT and API_KEY_PERIOD (issue 24)', () => {
  it('default to 100 requests a month, take a limit and day or month, and refuse anything else', () => {
    expect(loadConfig({}).apiKeys).toEqual({ limit: 100, period: 'month' });
    expect(loadConfig({ API_KEY_REQUEST_LIMIT: '3', API_KEY_PERIOD: 'day' }).apiKeys).toEqual({ limit: 3, period: 'day' });
    expect(errorOf({ API_KEY_REQUEST_LIMIT: '0' })).toBe('Invalid API_KEY_REQUEST_LIMIT "0": expected an integer from 1 to 1000000000');
    expect(errorOf({ API_KEY_PERIOD: 'week' })).toBe('Invalid API_KEY_PERIOD "week": expected day or month');
    const names = SETTINGS.map((s) => s.name);
    expect(names).toContain('API_KEY_REQUEST_LIMIT');
    expect(names).toContain('API_KEY_PERIOD');
  });
});

describe('the README', () => {
  it('names every setting the server reads (its Configuration table is written by hand)', () => {
    const readme = fs.readFileSync(path.join(__dirname, '..', 'README.md'), 'utf8');
    const missing = SETTINGS.map((s) => s.name).filter((name) => !new RegExp(`\\b${name}\\b`).test(readme));
    expect(missing).toEqual([]);
  });
});
