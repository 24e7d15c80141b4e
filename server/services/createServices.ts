import type { FastifyBaseLogger } from 'fastify';
import type { Kysely } from 'kysely';
import type { Database } from '../db/Database';
import type { MailPort } from '../mail/MailPort';
import type { SmsPort } from '../sms/SmsPort';
import { AccountService } from './AccountService';
import type { Clock } from './Clock';
import { EmailCodeService } from './EmailCodeService';
import { LoginService } from './LoginService';
import { MfaService } from './MfaService';
import { OpaqueService } from './OpaqueService';
import { ReauthService } from './ReauthService';
import { RecoveryService } from './RecoveryService';
import { SessionService } from './SessionService';
import { SignupService } from './SignupService';
import { SupportService } from './SupportService';
import { UserService } from './UserService';

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
}

export interface ServiceDeps {
  db: Kysely<Database>;
  clock: Clock;
  mailer: MailPort;
  sms: SmsPort;
  publicUrl: string;
  log: FastifyBaseLogger;
}

/** Wires every service over one database. Loads (or creates) the OPAQUE server setup. */
export async function createServices(deps: ServiceDeps): Promise<Services> {
  const { db, clock, mailer, sms, publicUrl, log } = deps;
  const opaque = await OpaqueService.load(db, clock);
  const users = new UserService(db, clock);
  const sessions = new SessionService(db, clock);
  const codes = new EmailCodeService(db, clock);
  const reauth = new ReauthService(db, clock);
  const mfa = new MfaService(db, clock, users, sms);
  const login = new LoginService(users, opaque, sessions, mfa, reauth);
  return {
    users,
    sessions,
    signup: new SignupService(users, opaque, codes, mailer, publicUrl, log),
    login,
    mfa,
    reauth,
    recovery: new RecoveryService(db, users, opaque, codes, sessions, login, mailer, publicUrl),
    account: new AccountService(users, opaque, sessions, reauth, clock),
    support: new SupportService(db, clock),
  };
}
