/**
 * The $U token as people see it (spec 002 sections 5 and 9, spec 000 section 5): balances in
 * millionths of a U shown to 4 decimals ('< 0.0001' below that), the Rewards dot, and the Send $U
 * form's rules. Figures stay BigInt end to end (src/protocol/ledger.ts: never a float), so a
 * balance of 18 digits is shown and checked exactly.
 */
import { LEDGER_TEXTS, MICRO_U_PER_U, SEND_MIN_BALANCE } from '../protocol/ledger';

const MICRO = BigInt(MICRO_U_PER_U);
/** Spec 002 section 9: "Reward badge when balance is over 100" (millionths; see docs/decisions.md). */
export const REWARD_BADGE_OVER = 100n;

/** The spec's texts for the Send $U form (spec 002 section 5). */
export const SEND_TEXTS = {
  badAddress: LEDGER_TEXTS.badAddress,
  overBalance: LEDGER_TEXTS.overBalance,
  badAmount: 'Enter an amount in U, with at most 6 decimals.',
  zeroAmount: 'Enter an amount greater than 0.',
  ownAddress: 'This is your own address.',
  underMinimum: 'Sending needs a balance of at least 0.0001 U.',
  notAllowed: 'Sending $U needs a paid plan or more than 100 MB of permanent storage.',
} as const;

function toBigInt(micro: string | bigint): bigint {
  return typeof micro === 'bigint' ? micro : BigInt(micro);
}

/**
 * A balance or amount (millionths) to 4 decimals, cut (never rounded up, so nobody is shown more
 * than they hold), whole part grouped: '2.0000', '1,234.5678'; '< 0.0001' for 1 to 99 millionths;
 * '0.0000' for nothing.
 */
export function formatU(micro: string | bigint): string {
  const value = toBigInt(micro);
  if (value > 0n && value < SEND_MIN_BALANCE) return '< 0.0001';
  const whole = (value / MICRO).toString().replace(/\B(?=(\d{3})+(?!\d))/g, ',');
  const fraction = ((value % MICRO) / 100n).toString().padStart(4, '0');
  return `${whole}.${fraction}`;
}

/** The exact figure in U (up to 6 decimals, trailing zeros dropped): what MAX writes in the amount field. */
export function formatExactU(micro: string | bigint): string {
  const value = toBigInt(micro);
  const fraction = (value % MICRO).toString().padStart(6, '0').replace(/0+$/, '');
  return `${value / MICRO}${fraction ? `.${fraction}` : ''}`;
}

/** The Rewards dot (spec 002 section 9): a balance over 100 millionths, which the page shows as a figure. */
export function hasRewardBadge(micro: string | bigint | null): boolean {
  return micro !== null && toBigInt(micro) > REWARD_BADGE_OVER;
}

/** An amount typed in U ('1', '0.25', '.5', '1,000.5') in millionths; null when it is not one (more than 6 decimals, letters). */
export function parseAmountU(text: string): bigint | null {
  const cleaned = text.trim().replace(/,/g, '');
  const match = /^(\d*)(?:\.(\d{0,6}))?$/.exec(cleaned);
  if (!match || (match[1] === '' && (match[2] ?? '') === '')) return null;
  const whole = BigInt(match[1] || '0');
  const fraction = BigInt((match[2] ?? '').padEnd(6, '0'));
  const micro = whole * MICRO + fraction;
  // The ledger takes at most 18 digits (src/protocol/ledger.ts MicroAmount).
  return micro.toString().length > 18 ? null : micro;
}

/** Spec 002 section 5: exactly 43 letters, digits, underscores or dashes. */
export function isWalletAddress(text: string): boolean {
  return /^[A-Za-z0-9_-]{43}$/.test(text);
}

export interface SendForm {
  address: string;
  amount: string;
}

export interface SendContext {
  /** Millionths of a U. */
  balance: bigint;
  /** Whether the account's plan lets it send (GET /utoken `canSend`). */
  canSend: boolean;
  ownAddress: string;
}

export interface SendCheck {
  /** Shown under the address field once something is typed there. */
  addressError: string | null;
  /** Shown under the amount field once something is typed there. */
  amountError: string | null;
  /** Why sending is closed whatever is typed (shown above the form), or null. */
  blocked: string | null;
  /** The amount in millionths when it is a good one. */
  amount: bigint | null;
  /** Send is enabled. */
  canSubmit: boolean;
}

/** The Send $U form's rules (spec 002 section 5): the address, the amount, and when Send is disabled. */
export function checkSendForm(form: SendForm, context: SendContext): SendCheck {
  const address = form.address.trim();
  let addressError: string | null = null;
  if (address !== '' && !isWalletAddress(address)) addressError = SEND_TEXTS.badAddress;
  else if (address !== '' && address === context.ownAddress) addressError = SEND_TEXTS.ownAddress;
  let amountError: string | null = null;
  let amount: bigint | null = null;
  if (form.amount.trim() !== '') {
    const parsed = parseAmountU(form.amount);
    if (parsed === null) amountError = SEND_TEXTS.badAmount;
    else if (parsed === 0n) amountError = SEND_TEXTS.zeroAmount;
    else if (parsed > context.balance) amountError = SEND_TEXTS.overBalance;
    else amount = parsed;
  }
  const blocked = !context.canSend ? SEND_TEXTS.notAllowed : context.balance < SEND_MIN_BALANCE ? SEND_TEXTS.underMinimum : null;
  const canSubmit = blocked === null && address !== '' && addressError === null && amount !== null;
  return { addressError, amountError, blocked, amount, canSubmit };
}
