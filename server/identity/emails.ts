import type { EmailPayload } from '../delivery/outbox';

/**
 * The identity emails. Codes travel only here (the outbox, then SMTP or /dev/mailbox) and are
 * never logged. Links use the origin the user reached us on (or PUBLIC_URL).
 */
const PRODUCT = 'Tidewatch';

const html = (paragraphs: string[], link?: { href: string; label: string }) =>
  [
    '<div style="font-family:system-ui,sans-serif;font-size:15px;line-height:1.5;color:#1a1b1e">',
    ...paragraphs.map((p) => `<p>${escapeHtml(p)}</p>`),
    link ? `<p><a href="${escapeHtml(link.href)}" style="background:#1c7ed6;color:#fff;padding:10px 18px;border-radius:6px;text-decoration:none">${escapeHtml(link.label)}</a></p>` : '',
    `<p style="color:#868e96;font-size:13px">${PRODUCT}</p>`,
    '</div>',
  ].join('');

function escapeHtml(s: string) {
  return s.replace(/[&<>"']/g, (ch) => `&#${ch.charCodeAt(0)};`);
}

export function verificationEmail(origin: string, code: string): EmailPayload {
  const href = `${origin}/verify-email?code=${encodeURIComponent(code)}`;
  const lines = [
    `Your ${PRODUCT} email verification code is ${code}.`,
    `To verify your email address, open this link while signed in: ${href}`,
    'The code expires in 24 hours. If you did not ask for it, you can ignore this email.',
  ];
  return { kind: 'verification-code', subject: `Verify your ${PRODUCT} email address`, text: lines.join('\n\n'), html: html(lines.slice(0, 1).concat(lines[2]), { href, label: 'Verify email' }) };
}

export function resetEmail(code: string): EmailPayload {
  const lines = [
    `Your ${PRODUCT} password reset code is ${code}.`,
    'Enter it on the reset password page with your new password. The code expires in 1 hour.',
    'If you did not ask to reset your password, you can ignore this email; your password has not changed.',
  ];
  return { kind: 'reset-code', subject: `Your ${PRODUCT} password reset code`, text: lines.join('\n\n'), html: html(lines) };
}

/** Invitation of a new user: the accept link's code is a one-time token (invitation-tokens.ts), never a password. */
export function invitationEmail(origin: string, p: { email: string; orgName: string; inviterName: string; token: string }): EmailPayload {
  const href = `${origin}/accept?email=${encodeURIComponent(p.email)}&code=${encodeURIComponent(p.token)}`;
  const lines = [
    `${p.inviterName} has invited you to join ${p.orgName} on ${PRODUCT}.`,
    `Accept the invitation and choose your password here: ${href}`,
    `The link works once and expires in 7 days; if it has expired, ask ${p.inviterName} to send the invitation again.`,
  ];
  return { kind: 'invitation', subject: `You're invited to ${p.orgName} on ${PRODUCT}`, text: lines.join('\n\n'), html: html([lines[0], lines[2]], { href, label: 'Accept invitation' }) };
}

/** An existing user invited to another organisation: they accept or decline in the app. */
export function pendingInvitationEmail(origin: string, p: { orgName: string; inviterName: string }): EmailPayload {
  const href = `${origin}/`;
  const lines = [
    `${p.inviterName} has invited you to join ${p.orgName} on ${PRODUCT}.`,
    `Sign in to accept or decline the invitation: ${href}`,
    'You will not be added to the organisation unless you accept. The invitation expires in 90 days.',
  ];
  return { kind: 'invitation', subject: `You're invited to ${p.orgName} on ${PRODUCT}`, text: lines.join('\n\n'), html: html([lines[0]!, lines[2]!], { href, label: 'Sign in to answer' }) };
}

/** An existing user added to another organisation: no password to set, just a link. */
export function addedToOrgEmail(origin: string, p: { orgName: string; orgSlug: string; inviterName: string }): EmailPayload {
  const href = `${origin}/org/${encodeURIComponent(p.orgSlug)}`;
  const lines = [`${p.inviterName} has added you to ${p.orgName} on ${PRODUCT}.`, `Open it here: ${href}`];
  return { kind: 'invitation', subject: `You've been added to ${p.orgName} on ${PRODUCT}`, text: lines.join('\n\n'), html: html(lines.slice(0, 1), { href, label: `Open ${p.orgName}` }) };
}

/** What a security notice is about (ASVS V6.3.7): a change to the account its owner should hear of. */
export type SecurityEvent = 'password-changed' | 'password-reset' | 'email-changed' | 'email-moved-away' | 'mfa-on' | 'mfa-off' | 'signed-in-after-lockout' | 'recovery-code-used' | 'recovery-codes-made' | 'mfa-reset';

/** Each notice: its subject, what happened, and (some) what to do next if it was the owner. */
const NOTICE: Record<SecurityEvent, { subject: string; what: (p: NoticeDetails) => string; ifYou?: (origin: string) => string }> = {
  'password-changed': { subject: 'Your password was changed', what: () => 'The password of your account was changed.' },
  'password-reset': { subject: 'Your password was reset', what: () => 'The password of your account was reset with a code sent to this address, and every other sign-in was signed out.' },
  'email-changed': { subject: 'This is now your sign-in address', what: () => 'This address is now the sign-in email of your account.' },
  'email-moved-away': { subject: 'Your sign-in email was changed', what: (p) => `The sign-in email of your account was changed to ${p.maskedNewEmail ?? 'another address'}. This address no longer signs in.` },
  // a sign-in's setup offers recovery codes once, and a reload there skips the offer: say where they are made
  'mfa-on': {
    subject: 'Two-factor authentication was turned on',
    what: () => 'Two-factor authentication was turned on for your account: signing in now also asks for a code from your authenticator app.',
    ifYou: (origin) => `keep recovery codes in case you lose your authenticator app: if you did not make them when you set it up, make them under Two-factor authentication in Account settings (${origin}/settings/account).`,
  },
  'mfa-off': { subject: 'Two-factor authentication was turned off', what: () => 'Two-factor authentication was turned off for your account: signing in asks for the password only.' },
  'recovery-code-used': { subject: 'A recovery code was used to sign in', what: () => 'Your account was signed in to with one of its recovery codes instead of a code from your authenticator app. That recovery code no longer works.' },
  'mfa-reset': {
    subject: 'Two-factor authentication was reset',
    what: (p) =>
      `The two-factor authentication of your account was reset by ${p.by ?? 'an administrator'}: your authenticator app and recovery codes no longer work. Signing in asks for the password only, or asks you to set up an authenticator again where your role requires one.`,
  },
  'recovery-codes-made': { subject: 'New recovery codes were made', what: () => 'New recovery codes were made for your account; the earlier ones no longer work.' },
  'signed-in-after-lockout': { subject: 'New sign-in after failed attempts', what: () => 'Your account was signed in to after it had been locked by failed sign-in attempts.' },
};

/** What a notice names: the new address (masked) of an email change, who reset the authenticator. */
export interface NoticeDetails {
  maskedNewEmail?: string;
  by?: string;
}

/** A security notice: what changed and when (UTC), and what to do if it was not the owner. Never carries a code or a password. */
export function securityNoticeEmail(origin: string, event: SecurityEvent, at: number, p: NoticeDetails = {}): EmailPayload {
  const n = NOTICE[event];
  const href = `${origin}/forgot-password`;
  const lines = [
    `${n.what(p)} (${new Date(at).toUTCString()})`,
    `If this was you, ${n.ifYou ? n.ifYou(origin) : 'there is nothing to do.'} If it was not, reset your password now at ${href} and tell your organisation's administrator.`,
  ];
  return { kind: 'security-notice', subject: `${PRODUCT}: ${n.subject}`, text: lines.join('\n\n'), html: html(lines, { href, label: 'Reset password' }) };
}
