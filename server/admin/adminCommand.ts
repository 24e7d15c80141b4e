/**
 * `npm run admin -- <command>`: parses the command line, runs one AdminService action and prints
 * its answer. Returns the exit code: 0 done, 1 refused (unknown account, bad value), 2 bad usage.
 * The entry (server/admin/main.ts) opens the database; tests call this with their own.
 */
import { ApiError } from '../../src/protocol/errors';
import type { AdminService, AdminUser } from './AdminService';

export const ADMIN_USAGE = `Usage: npm run admin -- <command>

Commands:
  users [--find TEXT]                               list accounts (newest first), or those whose e-mail or name contains TEXT
  disable EMAIL                                     disable an account: its sessions end and it cannot log in
  enable EMAIL                                      re-enable a disabled account
  reset-2fa EMAIL                                   turn two-factor off: the user logs in with the password alone
  allowance EMAIL [--cloud BYTES] [--permanent BYTES]
                                                    set the account's own storage allowances ("default": the server's setting)
  plan EMAIL PLAN_ID                                move the account to a plan of PLANS_FILE ("default": the default plan)
  invoices [--open]                                 list invoices, newest first (only open ones with --open)
  invoice-paid NUMBER                               mark an invoice paid: a subscription's plan, or a top-up, takes effect at once
  reports [--open]                                  list support reports (only open ones with --open)
  close-report ID                                   close a support report
  relay                                             permanent relay queue: storage transactions by status, oldest pending
  claims [--open]                                   list claims of $U to outside addresses (only unsettled ones with --open)
  claim-settled ID TXID                             record that a claim was paid out in the Arweave transaction TXID
  actions                                           every change made with this command (who, what, when)

Reads DATA_DIR and DATABASE_URL like the server. Every change is recorded in the admin_actions table.`;

export interface AdminOutput {
  out(line: string): void;
  err(line: string): void;
}

class UsageError extends Error {}

export async function runAdminCommand(argv: readonly string[], admin: AdminService, io: AdminOutput): Promise<number> {
  const [command, ...rest] = argv;
  try {
    switch (command) {
      case 'users': {
        const { flags } = parseArgs(rest, ['--find'], [], 0);
        printUsers(await admin.users(flags['--find']), io);
        return 0;
      }
      case 'disable': {
        const { positional } = parseArgs(rest, [], [], 1);
        const { sessionsEnded } = await admin.disable(positional[0]!);
        io.out(`Disabled ${positional[0]!.toLowerCase()} (${sessionsEnded} session${sessionsEnded === 1 ? '' : 's'} ended).`);
        return 0;
      }
      case 'enable': {
        const { positional } = parseArgs(rest, [], [], 1);
        await admin.enable(positional[0]!);
        io.out(`Enabled ${positional[0]!.toLowerCase()}.`);
        return 0;
      }
      case 'reset-2fa': {
        const { positional } = parseArgs(rest, [], [], 1);
        await admin.resetTwoFactor(positional[0]!);
        io.out(`Two-factor is off for ${positional[0]!.toLowerCase()}: the password alone logs in.`);
        return 0;
      }
      case 'allowance': {
        const { positional, flags } = parseArgs(rest, ['--cloud', '--permanent'], [], 1);
        const cloud = parseBytes('--cloud', flags['--cloud']);
        const permanent = parseBytes('--permanent', flags['--permanent']);
        if (cloud === undefined && permanent === undefined) throw new UsageError('allowance needs --cloud BYTES, --permanent BYTES or both');
        await admin.setAllowance(positional[0]!, { ...(cloud !== undefined ? { cloud } : {}), ...(permanent !== undefined ? { permanent } : {}) });
        io.out(`Allowances of ${positional[0]!.toLowerCase()} set.`);
        return 0;
      }
      case 'plan': {
        const { positional } = parseArgs(rest, [], [], 2);
        const plan = await admin.setPlan(positional[0]!, positional[1]!);
        io.out(`${positional[0]!.toLowerCase()} is on the plan ${plan.name} (${plan.planId}).`);
        return 0;
      }
      case 'invoices': {
        const { switches } = parseArgs(rest, [], ['--open'], 0);
        const invoices = await admin.invoices({ open: switches.has('--open') });
        if (invoices.length === 0) io.out(switches.has('--open') ? 'No open invoices.' : 'No invoices.');
        for (const i of invoices) {
          const what = i.kind === 'topup' ? 'top-up' : `plan ${i.planId}`;
          io.out(
            `${i.number}  ${iso(i.createdAt)}  ${i.status === 'paid' ? 'paid' : 'open'}  ${i.userEmail}  ${what}  ${i.total} ${i.currency}${i.paidAt === null ? '' : `  paid ${iso(i.paidAt)}`}`,
          );
        }
        return 0;
      }
      case 'invoice-paid': {
        const { positional } = parseArgs(rest, [], [], 1);
        const paid = await admin.invoicePaid(positional[0]!);
        io.out(
          paid.kind === 'subscription'
            ? `Invoice ${paid.number} is paid: ${paid.email} is on the plan ${paid.planId}.`
            : `Invoice ${paid.number} is paid: the top-up of ${paid.email} is added to its storage.`,
        );
        return 0;
      }
      case 'reports': {
        const { switches } = parseArgs(rest, [], ['--open'], 0);
        const reports = await admin.reports({ open: switches.has('--open') });
        if (reports.length === 0) io.out('No support reports.');
        for (const r of reports) {
          io.out(
            `${r.id}  ${iso(r.createdAt)}  ${r.closedAt === null ? 'open  ' : 'closed'}  ${r.userEmail ?? '(signed out)'}  ${oneLine(r.action)}: ${oneLine(r.error)}${r.path ? `  at ${oneLine(r.path)}` : ''}`,
          );
        }
        return 0;
      }
      case 'close-report': {
        const { positional } = parseArgs(rest, [], [], 1);
        await admin.closeReport(positional[0]!);
        io.out(`Closed support report ${positional[0]}.`);
        return 0;
      }
      case 'relay': {
        parseArgs(rest, [], [], 0);
        const status = await admin.relay();
        const entries = Object.entries(status.byStatus).sort(([a], [b]) => a.localeCompare(b));
        io.out('Storage transactions by status:');
        if (entries.length === 0) io.out('  (none)');
        for (const [name, count] of entries) io.out(`  ${name.padEnd(13)}${count}`);
        const oldest = status.oldestPending;
        io.out(oldest ? `Oldest pending: ${oldest.id} (${oldest.status}, since ${iso(oldest.createdAt)}, ${oldest.attempts} attempts)` : 'Oldest pending: none');
        return 0;
      }
      case 'claims': {
        const { switches } = parseArgs(rest, [], ['--open'], 0);
        const claims = await admin.claims({ open: switches.has('--open') });
        if (claims.length === 0) io.out('No claims.');
        for (const c of claims) {
          io.out(
            `${c.id}  ${iso(c.createdAt)}  ${c.status.padEnd(7)}  ${c.userEmail ?? '(deleted account)'}  ${formatMicroU(c.amount)} U to ${c.address}${c.txId ? `  tx ${c.txId}` : ''}`,
          );
        }
        return 0;
      }
      case 'claim-settled': {
        const { positional } = parseArgs(rest, [], [], 2);
        await admin.settleClaim(positional[0]!, positional[1]!);
        io.out(`Claim ${positional[0]} settled in transaction ${positional[1]}.`);
        return 0;
      }
      case 'actions': {
        parseArgs(rest, [], [], 0);
        for (const a of await admin.actions()) {
          io.out(`${iso(a.createdAt)}  ${a.actor}  ${a.action} ${a.target}${a.details === null ? '' : ` ${JSON.stringify(a.details)}`}`);
        }
        return 0;
      }
      case undefined:
      case 'help':
      case '--help':
      case '-h':
        io.out(ADMIN_USAGE);
        return command === undefined ? 2 : 0;
      default:
        throw new UsageError(`Unknown command "${command}"`);
    }
  } catch (error) {
    if (error instanceof UsageError) {
      io.err(`${error.message}\n\n${ADMIN_USAGE}`);
      return 2;
    }
    if (error instanceof ApiError) {
      io.err(error.message);
      return 1;
    }
    throw error;
  }
}

function printUsers(users: AdminUser[], io: AdminOutput): void {
  if (users.length === 0) {
    io.out('No accounts.');
    return;
  }
  for (const u of users) {
    const flags = [u.disabled ? 'DISABLED' : null, u.emailVerified ? null : 'unverified', u.mfaType ? `2FA ${u.mfaType}` : null].filter(Boolean).join(', ');
    const allowances =
      u.cloudAllowance === null && u.permanentAllowance === null
        ? ''
        : `  allowances cloud ${u.cloudAllowance ?? 'default'} permanent ${u.permanentAllowance ?? 'default'}`;
    io.out(`${u.email}  ${oneLine(u.name ?? '')}  since ${iso(u.createdAt)}  plan ${u.plan}${flags ? `  [${flags}]` : ''}${allowances}`);
  }
}

/** Options with a value, switches without, and exactly `positionalCount` other arguments. */
function parseArgs(
  args: readonly string[],
  valued: readonly string[],
  switchNames: readonly string[],
  positionalCount: number,
): { positional: string[]; flags: Record<string, string>; switches: Set<string> } {
  const positional: string[] = [];
  const flags: Record<string, string> = {};
  const switches = new Set<string>();
  for (let i = 0; i < args.length; i += 1) {
    const arg = args[i]!;
    if (valued.includes(arg)) {
      const value = args[i + 1];
      if (value === undefined || value.startsWith('--')) throw new UsageError(`${arg} needs a value`);
      flags[arg] = value;
      i += 1;
    } else if (switchNames.includes(arg)) {
      switches.add(arg);
    } else if (arg.startsWith('-')) {
      throw new UsageError(`Unknown option "${arg}"`);
    } else {
      positional.push(arg);
    }
  }
  if (positional.length !== positionalCount) {
    throw new UsageError(positionalCount === 0 ? `Unexpected argument "${positional[0]}"` : `Expected ${positionalCount === 1 ? 'one argument' : `${positionalCount} arguments`}`);
  }
  return { positional, flags, switches };
}

/** A byte count, or "default" (null: back to the server's setting). */
function parseBytes(name: string, raw: string | undefined): number | null | undefined {
  if (raw === undefined) return undefined;
  if (raw === 'default') return null;
  const value = Number(raw);
  if (!/^\d+$/.test(raw) || !Number.isSafeInteger(value)) throw new UsageError(`${name} must be a whole number of bytes or "default", not "${raw}"`);
  return value;
}

/** Millionths of a U as U, exactly (no float): 1500000 is "1.5". */
function formatMicroU(micro: string): string {
  const padded = micro.padStart(7, '0');
  const fraction = padded.slice(-6).replace(/0+$/, '');
  return `${padded.slice(0, -6)}${fraction ? `.${fraction}` : ''}`;
}

function iso(ms: number): string {
  return new Date(ms).toISOString();
}

/** Report fields are written by users: one line, no terminal control characters. */
function oneLine(text: string | null): string {
  // eslint-disable-next-line no-control-regex
  return (text ?? '').replace(/[\u0000-\u001f\u007f-\u009f]+/g, ' ').slice(0, 200);
}
