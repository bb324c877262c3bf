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
  };
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
