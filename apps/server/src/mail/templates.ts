import { PRODUCT_NAME } from '@bytegate/contracts/constants';

/**
 * Every mail the server sends, in one place. A template takes typed values and returns the subject, a
 * plain-text body and an HTML body saying the same thing; the mailer adds From and To. Every value put
 * into HTML goes through `escapeHtml`, so a customer's message can never become markup in staff's
 * reply or anyone's mail client.
 */
export interface MailContent {
  subject: string;
  text: string;
  html: string;
  /**
   * The one-time secrets the mail carries, exactly as written in it: a link that signs in or proves an
   * address (password reset, email verification, change of email). Only the addressee may read them:
   * wherever staff see the mail (the console's Outbox) they are redacted. Every template says, `[]`
   * when it carries none.
   */
  secrets: string[];
}

export interface ContactReplyProps {
  /** The name the customer gave on the contact form. */
  name: string;
  /** The subject of their message (optional on the form, so it may be empty). */
  subject: string;
  /** What they wrote, quoted below the reply. */
  originalMessage: string;
  /** Support's answer, plain text. */
  reply: string;
}

/** Support's answer to a message sent through the contact form. */
export function contactReply({ name, subject, originalMessage, reply }: ContactReplyProps): MailContent {
  const topic = subject.trim().replace(/^(re:\s*)+/i, '');
  const quoted = originalMessage
    .trim()
    .split(/\r?\n/)
    .map((line) => `> ${line}`)
    .join('\n');
  return {
    subject: topic ? `Re: ${topic}` : `Re: your message to ${PRODUCT_NAME}`,
    text: textLayout([`Hello ${name},`, reply.trim(), `You wrote:\n${quoted}`]),
    html: htmlLayout(topic || 'Your message', [
      `<p>Hello ${escapeHtml(name)},</p>`,
      paragraphs(reply),
      '<p>You wrote:</p>',
      `<blockquote style="margin:0 0 16px;padding:0 0 0 12px;border-left:3px solid #d0d0d0;color:#555555">${paragraphs(originalMessage)}</blockquote>`,
    ]),
    secrets: [],
  };
}

export interface ThreadRequestDecisionProps {
  /** The customer's name, as on their account. */
  name: string;
  /** The plan the request was about, as the customer sees it (its label). */
  planLabel: string;
  approved: boolean;
  /** The plan's thread limit (concurrent connections) after the decision: raised, or as it stays. */
  threadLimit: number;
  /** Staff's note to the customer; optional. */
  message?: string | null;
}

/** The answer to a customer's request for more threads (concurrent connections) on a plan. */
export function threadRequestDecision({
  name,
  planLabel,
  approved,
  threadLimit,
  message,
}: ThreadRequestDecisionProps): MailContent {
  const threads = `${threadLimit} concurrent ${threadLimit === 1 ? 'connection' : 'connections'}`;
  const decision = approved
    ? `We raised the thread limit of your plan ${planLabel} to ${threads}.`
    : `We could not raise the thread limit of your plan ${planLabel}; it stays at ${threads}.`;
  const decisionHtml = approved
    ? `We raised the thread limit of your plan <strong>${escapeHtml(planLabel)}</strong> to <strong>${escapeHtml(threads)}</strong>.`
    : `We could not raise the thread limit of your plan <strong>${escapeHtml(planLabel)}</strong>; it stays at <strong>${escapeHtml(threads)}</strong>.`;
  const note = message?.trim() ?? '';
  return {
    subject: approved ? `Thread limit raised: ${planLabel}` : `Thread limit request declined: ${planLabel}`,
    text: textLayout([`Hello ${name},`, decision, ...(note ? [note] : [])]),
    html: htmlLayout(approved ? 'Thread limit raised' : 'Thread limit request declined', [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>${decisionHtml}</p>`,
      ...(note ? [paragraphs(note)] : []),
    ]),
    secrets: [],
  };
}

export interface PasswordResetProps {
  /** The account holder's first name. */
  name: string;
  /** The page that sets the new password, with the link's token. */
  link: string;
  /** How long the link works. */
  validMinutes: number;
}

/** The link to set a new password, asked for on the sign-in page's "Forgot your password?". */
export function passwordReset({ name, link, validMinutes }: PasswordResetProps): MailContent {
  const validity = `The link works for ${validMinutes} minutes, once. Asking for another one ends this one.`;
  const notYou =
    'If you did not ask for this, ignore this email: your password stays as it is, and nobody can use this link without reading your mail.';
  return {
    subject: `Reset your ${PRODUCT_NAME} password`,
    text: textLayout([
      `Hello ${name},`,
      `Someone (hopefully you) asked to reset the password of your ${PRODUCT_NAME} account. To choose a new password, open this link:`,
      link,
      `${validity} Setting a new password signs you out on every device and revokes every API key of the account (create new ones once you are back); your proxy credentials keep working.`,
      notYou,
    ]),
    html: htmlLayout('Reset your password', [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>Someone (hopefully you) asked to reset the password of your ${escapeHtml(PRODUCT_NAME)} account.</p>`,
      linkButton(link, 'Choose a new password'),
      `<p>${escapeHtml(validity)} Setting a new password signs you out on every device and revokes every API key of the account (create new ones once you are back); your proxy credentials keep working.</p>`,
      `<p>${escapeHtml(notYou)}</p>`,
    ]),
    secrets: [link],
  };
}

export interface EmailVerificationProps {
  name: string;
  /** The page that proves the address, with the link's token. */
  link: string;
  validDays: number;
}

/** The link that proves a new account's address; top-ups and purchases wait for it when required. */
export function emailVerification({ name, link, validDays }: EmailVerificationProps): MailContent {
  const validity = `The link works for ${validDays} days. You can send yourself a new one from the dashboard.`;
  return {
    subject: `Verify your email for ${PRODUCT_NAME}`,
    text: textLayout([
      `Hello ${name},`,
      `Welcome to ${PRODUCT_NAME}. Please confirm that this is your email address by opening this link:`,
      link,
      `Once it is verified you can top up your balance and buy traffic. ${validity}`,
      'If you did not create an account, ignore this email.',
    ]),
    html: htmlLayout('Verify your email', [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>Welcome to ${escapeHtml(PRODUCT_NAME)}. Please confirm that this is your email address.</p>`,
      linkButton(link, 'Verify my email'),
      `<p>Once it is verified you can top up your balance and buy traffic. ${escapeHtml(validity)}</p>`,
      '<p>If you did not create an account, ignore this email.</p>',
    ]),
    secrets: [link],
  };
}

export interface EmailChangeProps {
  name: string;
  /** The address the account is to move to. */
  newEmail: string;
  /** The page that confirms the change, with the link's token. */
  link: string;
  validHours: number;
}

/** Sent to the new address of a change of email: the change happens when this link is followed. */
export function emailChangeConfirmation({ name, newEmail, link, validHours }: EmailChangeProps): MailContent {
  const ask = `You asked to use ${newEmail} for your ${PRODUCT_NAME} account. To confirm, open this link:`;
  const validity = `The link works for ${validHours} hours. Until it is followed, your account keeps its current email.`;
  const revokes =
    'Confirming signs you out on every other device and revokes every API key of the account (create new ones afterwards); your proxy credentials keep working.';
  return {
    subject: `Confirm your new email for ${PRODUCT_NAME}`,
    text: textLayout([
      `Hello ${name},`,
      ask,
      link,
      validity,
      revokes,
      'If you did not ask for this, ignore this email.',
    ]),
    html: htmlLayout('Confirm your new email', [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>You asked to use <strong>${escapeHtml(newEmail)}</strong> for your ${escapeHtml(PRODUCT_NAME)} account.</p>`,
      linkButton(link, 'Confirm my new email'),
      `<p>${escapeHtml(validity)}</p>`,
      `<p>${escapeHtml(revokes)}</p>`,
      '<p>If you did not ask for this, ignore this email.</p>',
    ]),
    secrets: [link],
  };
}

export interface EmailChangeRequestedProps {
  name: string;
  newEmail: string;
}

/** Sent to the old address of a change of email when it is asked for, so a takeover does not go unseen. */
export function emailChangeRequested({ name, newEmail }: EmailChangeRequestedProps): MailContent {
  const asked = `Someone signed in to your ${PRODUCT_NAME} account asked to change its email to ${newEmail}.`;
  const pending =
    'Nothing changes until the link we sent to that address is followed; until then this address stays the one on your account.';
  const notYou =
    'If this was not you, sign in, change your password (which signs out every other device) and contact support.';
  return {
    subject: `Your ${PRODUCT_NAME} email is about to change`,
    text: textLayout([`Hello ${name},`, asked, pending, notYou]),
    html: htmlLayout('Your email is about to change', [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>Someone signed in to your ${escapeHtml(PRODUCT_NAME)} account asked to change its email to <strong>${escapeHtml(newEmail)}</strong>.</p>`,
      `<p>${escapeHtml(pending)}</p>`,
      `<p><strong>${escapeHtml(notYou)}</strong></p>`,
    ]),
    secrets: [],
  };
}

export interface SignInLinkProps {
  name: string;
  /** The page that signs in with the link's token. */
  link: string;
  validMinutes: number;
  /** Wrong passwords tried on the account from browsers it does not know, in the lock's window. */
  failures: number;
  /** From how many client addresses they came. */
  addresses: number;
  /** How long the lock still holds. */
  lockedMinutes: number;
}

/**
 * The way in for the owner of an account that many addresses guessed at: what happened, and a link that
 * signs in once (a second factor still asked where it is on). Asked for on the sign-in page.
 */
export function signInLink(props: SignInLinkProps): MailContent {
  const { name, link, validMinutes, failures, addresses, lockedMinutes } = props;
  const plural = (count: number, one: string, many: string) => `${count} ${count === 1 ? one : many}`;
  const happened = `Someone tried to sign in to your ${PRODUCT_NAME} account with a wrong password ${plural(failures, 'time', 'times')} from ${plural(addresses, 'address', 'different addresses')}. To keep guessing slow, sign-ins from browsers that have never been used with your account are paused for the next ${plural(lockedMinutes, 'minute', 'minutes')}. Browsers you signed in with before are not affected.`;
  const ask = 'You (or someone typing your email) asked to sign in anyway. To sign in now, open this link:';
  const validity = `The link works for ${validMinutes} minutes, once, and remembers the browser you open it in. Where two-factor authentication is on, it still asks for your code.`;
  const advice =
    'Your password was not accepted in any of those attempts. If you use it on another site too, change it in User Settings once you are in. If you did not ask for this link, ignore this email: nobody can use it without reading your mail.';
  return {
    subject: `Sign in to your ${PRODUCT_NAME} account`,
    text: textLayout([`Hello ${name},`, happened, ask, link, validity, advice]),
    html: htmlLayout('Sign in to your account', [
      `<p>Hello ${escapeHtml(name)},</p>`,
      `<p>${escapeHtml(happened)}</p>`,
      `<p>${escapeHtml(ask)}</p>`,
      linkButton(link, 'Sign in'),
      `<p>${escapeHtml(validity)}</p>`,
      `<p>${escapeHtml(advice)}</p>`,
    ]),
    // It signs in: a secret of the addressee's, redacted in the console's Outbox.
    secrets: [link],
  };
}

/** A link as a button, with the address written out below for clients that show no button. */
function linkButton(href: string, label: string): string {
  return [
    `<p style="margin:24px 0"><a href="${escapeHtml(href)}" style="display:inline-block;padding:12px 20px;border-radius:6px;background:#4338ca;color:#ffffff;font-weight:bold;text-decoration:none">${escapeHtml(label)}</a></p>`,
    `<p style="font-size:14px;color:#555555">Or open this address in your browser:<br>\n<a href="${escapeHtml(href)}" style="color:#4338ca;word-break:break-all">${escapeHtml(href)}</a></p>`,
  ].join('\n');
}

/** Escapes text for HTML element content and quoted attribute values. */
export function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => HTML_ESCAPES[char] ?? char);
}

const HTML_ESCAPES: Record<string, string> = {
  '&': '&amp;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&quot;',
  "'": '&#39;',
};

const SIGNATURE = `The ${PRODUCT_NAME} team`;

/** Plain text: the blocks a blank line apart, then the signature. */
export function textLayout(blocks: string[]): string {
  return `${[...blocks, `-- \n${SIGNATURE}`].join('\n\n')}\n`;
}

/** Plain text as HTML paragraphs: blank lines part paragraphs, single line breaks stay. */
export function paragraphs(text: string): string {
  return text
    .trim()
    .split(/(?:\r?\n){2,}/)
    .map((paragraph) => `<p>${escapeHtml(paragraph).replace(/\r?\n/g, '<br>\n')}</p>`)
    .join('\n');
}

/**
 * The one HTML frame: a language, a title, one readable column, real text (no images, no layout
 * tables), inline styles only (mail clients drop style sheets) and colours with enough contrast.
 * `body` is HTML already escaped by the template.
 */
export function htmlLayout(title: string, body: string[]): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${escapeHtml(title)}</title>
</head>
<body style="margin:0;padding:24px 16px;background:#ffffff;color:#1a1a1a;font-family:-apple-system,'Segoe UI',Roboto,Helvetica,Arial,sans-serif;font-size:16px;line-height:1.5">
<main style="max-width:560px;margin:0 auto">
<p style="margin:0 0 24px;font-size:18px;font-weight:bold">${escapeHtml(PRODUCT_NAME)}</p>
${body.join('\n')}
<p style="margin:24px 0 0">${escapeHtml(SIGNATURE)}</p>
</main>
</body>
</html>
`;
}
