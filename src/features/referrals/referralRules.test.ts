/** The Referral Reward page's rows (spec 001 section 5, Referral; SYNC_SPEC R134). */
import { describe, expect, it } from 'vitest';
import { emailsToSend, growRows, referralLink } from './referralRules';

describe('referral rows', () => {
  it('grow by one empty row once the last holds an e-mail, up to the rewards left', () => {
    expect(growRows(['ada@example.com'], 10)).toEqual(['ada@example.com', '']);
    expect(growRows(['ada@example'], 10)).toEqual(['ada@example']);
    expect(growRows(['ada@example.com', 'bob@example.com'], 2)).toEqual(['ada@example.com', 'bob@example.com']);
    expect(growRows(['ada@example.com'], 1)).toEqual(['ada@example.com']);
  });

  it('send the filled rows once each, and nothing while a filled row is not an e-mail', () => {
    expect(emailsToSend(['Ada@Example.com ', '', 'ada@example.com', 'bob@example.com'])).toEqual(['ada@example.com', 'bob@example.com']);
    expect(emailsToSend(['ada@example.com', 'bob'])).toBeNull();
    expect(emailsToSend(['', '  '])).toBeNull();
  });

  it('make the link the host plus /signup/?referrerId=', () => {
    expect(referralLink('https://vault.example.org', 'a-b_c')).toBe('https://vault.example.org/signup/?referrerId=a-b_c');
  });
});
