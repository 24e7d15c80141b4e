import type { MailMessage } from './MailPort';

/** The sign-up verification e-mail (spec 001: 'Final step – verify your email'). */
export function verificationMail(to: string, link: string): MailMessage {
  return linkMail({
    to,
    subject: 'Verify your email for Cairn',
    intro: 'Welcome to Cairn. Please confirm that this is your email address by opening the link below.',
    action: 'Verify email',
    link,
    outro: 'The link works for 24 hours. Only the latest link we sent works. If you did not sign up for Cairn, ignore this email.',
  });
}

/** The account recovery e-mail: leads to the backup-phrase step. */
export function recoveryMail(to: string, link: string): MailMessage {
  return linkMail({
    to,
    subject: 'Recover your Cairn account',
    intro: 'Someone asked to recover the Cairn account for this email address. To set a new password, open the link below and enter your 12-word recovery phrase.',
    action: 'Recover account',
    link,
    outro: 'The link works for 1 hour. If you did not ask for this, ignore this email: your account is unchanged.',
  });
}

/**
 * A vault invitation (spec 001 section 4): who invites, the link to the invite page, and the
 * inviter's optional message, sent unencrypted and set apart as their words, not Cairn's (a
 * message is text: it is escaped in the HTML part, so it cannot add links or markup).
 */
export function invitationMail(parts: { to: string; inviterEmail: string; link: string; message?: string | undefined; resent?: boolean }): MailMessage {
  return linkMail({
    to: parts.to,
    subject: `${parts.inviterEmail} invited you to a vault on Cairn`,
    intro: `${parts.inviterEmail} invited you to their vault on Cairn${parts.resent ? ' (a reminder)' : ''}. Open the link below, sign in, and read the terms of access to accept or reject the invitation.`,
    ...(parts.message ? { quote: { label: `Message from ${parts.inviterEmail} (their words, not Cairn's):`, text: parts.message } } : {}),
    action: 'View invitation',
    link: parts.link,
    outro: 'If you did not expect this invitation, ignore this email: nothing is shared with you until you accept.',
  });
}

/**
 * Activity in a vault (docs/SYNC_SPEC.md R30): what happened, in general words only. The server
 * does not know a private vault's or file's name, and a mail must not carry one anyway: the link
 * opens the notifications page, where the app shows the names it decrypts.
 */
export function activityMail(parts: { to: string; fromEmail: string | null; what: string; link: string }): MailMessage {
  const who = parts.fromEmail ?? 'A member';
  return linkMail({
    to: parts.to,
    subject: 'New activity in your vault on Cairn',
    intro: `${who} ${parts.what} in one of your vaults on Cairn.`,
    action: 'Open your notifications',
    link: parts.link,
    outro: 'You get these emails because email notifications are on. You can turn them off in your account settings.',
  });
}

/** A referral invitation ('Invite now' on the Referral Reward page): the referrer's sign-up link. */
export function referralMail(parts: { to: string; referrerEmail: string; link: string }): MailMessage {
  return linkMail({
    to: parts.to,
    subject: `${parts.referrerEmail} invited you to Cairn`,
    intro: `${parts.referrerEmail} invited you to Cairn, end-to-end encrypted vaults for your files, notes and chats. Sign up to get 100 MB of permanent storage and 1 GB of cloud storage free of charge.`,
    action: 'Sign up',
    link: parts.link,
    outro: 'If you do not know this person, ignore this email: nothing happens unless you sign up.',
  });
}

/**
 * Added to an organisation (spec 001 section 6). The organisation's name is the admin's text: it
 * goes into the text part as it is and is escaped in the HTML part like every field of linkMail.
 */
export function organisationMail(parts: { to: string; inviterEmail: string; organisationName: string; isAdmin: boolean; link: string }): MailMessage {
  return linkMail({
    to: parts.to,
    subject: `${parts.inviterEmail} added you to an organisation on Cairn`,
    intro: `${parts.inviterEmail} added you to the organisation "${parts.organisationName}" on Cairn as ${parts.isAdmin ? 'an admin' : 'a member'}.${parts.isAdmin ? ' Their vaults will appear in your vault list as an owner.' : ''}`,
    action: 'Open Cairn',
    link: parts.link,
    outro: 'If you did not expect this, contact the person who added you or our support.',
  });
}

function linkMail(parts: {
  to: string;
  subject: string;
  intro: string;
  /** Someone else's words, shown apart and marked as theirs. */
  quote?: { label: string; text: string };
  action: string;
  link: string;
  outro: string;
}): MailMessage {
  const quoteText = parts.quote ? `${parts.quote.label}\n\n${parts.quote.text.replace(/^/gm, '> ')}\n\n` : '';
  const text = `${parts.intro}\n\n${quoteText}${parts.action}:\n${parts.link}\n\n${parts.outro}\n\n- Cairn\n`;
  const href = escapeHtml(parts.link);
  const quoteHtml = parts.quote
    ? [
        `<p>${escapeHtml(parts.quote.label)}</p>`,
        `<blockquote style="border-left: 3px solid #ccc; margin: 0; padding-left: 12px; white-space: pre-wrap">${escapeHtml(parts.quote.text)}</blockquote>`,
      ]
    : [];
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>${escapeHtml(parts.intro)}</p>`,
    ...quoteHtml,
    `<p><a href="${href}">${escapeHtml(parts.action)}</a></p>`,
    `<p>Or copy this link into your browser:<br>${href}</p>`,
    `<p>${escapeHtml(parts.outro)}</p>`,
    '<p>- Cairn</p>',
    '</body></html>',
  ].join('\n');
  return { to: parts.to, subject: parts.subject, text, html };
}

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);
}
