import { LINK_TOKEN_LENGTH } from '@bytegate/contracts/account-links';
import type { Config } from '../config.ts';
import type { ReceivedMail, SmtpSink } from '../mail/testing/smtp-sink.ts';

/** The mail settings of a server whose mail goes to a test SMTP server. */
export function mailTo(sink: SmtpSink): Config['mail'] {
  return { smtpUrl: `smtp://127.0.0.1:${sink.port}`, from: 'Bytegate <no-reply@bytegate.test>' };
}

/** Waits until the SMTP server has taken a message for `to` (the `nth`, counted from 1) and answers it. */
export async function mailFor(
  sink: SmtpSink,
  to: string,
  nth = 1,
  timeoutMs = 10_000,
): Promise<ReceivedMail> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = mailsFor(sink, to)[nth - 1];
    if (found) {
      return found;
    }
    if (Date.now() > deadline) {
      throw new Error(`no mail #${nth} for ${to} within ${timeoutMs} ms`);
    }
    await new Promise((resolve) => setTimeout(resolve, 25));
  }
}

/** Every message the SMTP server took for `to`, in the order it took them. */
export function mailsFor(sink: SmtpSink, to: string): ReceivedMail[] {
  return sink.received.filter((mail) => mail.rcptTo.includes(to));
}

/** The link to `page` (`/reset-password`, `/verify-email`) in a message's text, and its token. */
export function linkIn(mail: ReceivedMail, page: string): { url: string; token: string } {
  const pattern = new RegExp(`(https?://[^\\s]+${page}\\?token=([A-Za-z0-9_-]{${LINK_TOKEN_LENGTH}}))`);
  const match = pattern.exec(mail.parsed.text ?? '');
  if (!match?.[1] || !match[2]) {
    throw new Error(`no ${page} link in the mail "${mail.parsed.subject}"`);
  }
  return { url: match[1], token: match[2] };
}
