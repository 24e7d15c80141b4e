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

function linkMail(parts: { to: string; subject: string; intro: string; action: string; link: string; outro: string }): MailMessage {
  const text = `${parts.intro}\n\n${parts.action}:\n${parts.link}\n\n${parts.outro}\n\n- Cairn\n`;
  const href = escapeHtml(parts.link);
  const html = [
    '<!doctype html><html><body style="font-family: sans-serif; line-height: 1.5">',
    `<p>${escapeHtml(parts.intro)}</p>`,
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
