import { join } from 'node:path';
import type { FastifyBaseLogger } from 'fastify';
import {
  createTransport,
  type NodemailerError,
  type SendMailOptions,
  type SMTPTransportOptions,
} from 'nodemailer';
import type { Config } from '../config.ts';
import { DomainError } from '../services/domain-error.ts';
import { outboxDir, writeOutboxMessage } from './outbox.ts';
import type { MailContent } from './templates.ts';

/**
 * The server's one way to send mail. With SMTP_URL set it hands each message to that SMTP server;
 * without, it writes the message as an `.eml` file to the outbox (`DATA_DIR/outbox`, see outbox.ts),
 * so a fresh clone sends nothing and still shows what it would have sent. Both paths build the same
 * RFC 5322 message with nodemailer, From always MAIL_FROM.
 */

/** One message: a template's subject, text and HTML (templates.ts) and who it goes to. */
export interface MailMessage extends MailContent {
  /** One address or several, bare (`ann@example.com`) or with a name (`Ann Lee <ann@example.com>`). */
  to: string | string[];
  /** Where answers should go when not to MAIL_FROM (e.g. a support address). */
  replyTo?: string;
}

export type MailTransportName = 'smtp' | 'outbox';

export interface SentMail {
  transport: MailTransportName;
  /** The Message-ID header, e.g. `<…@bytegate.example>`. */
  messageId: string;
  /** The outbox id (for `readOutboxMessage`) when written to the outbox; null when sent by SMTP. */
  outboxId: string | null;
  /** Recipients the SMTP server took (every recipient for the outbox). */
  accepted: string[];
  /** Recipients the SMTP server refused while taking the others; the message went to those only. */
  rejected: string[];
}

export interface Mailer {
  transport: MailTransportName;
  /**
   * Sends one message. A message that could not be sent is logged and thrown as a DomainError
   * `UPSTREAM_UNAVAILABLE` saying why in words a person can act on; it never takes the process down.
   */
  send(message: MailMessage): Promise<SentMail>;
}

export type MailLog = Pick<FastifyBaseLogger, 'info' | 'error'>;

/** Builds the mailer the settings ask for; connects to nothing until the first send. */
export function createMailer(config: Pick<Config, 'mail' | 'dataDir'>, log: MailLog): Mailer {
  const { smtpUrl, from } = config.mail;
  return smtpUrl ? createSmtpMailer(smtpUrl, from, log) : createOutboxMailer(config.dataDir, from, log);
}

function createSmtpMailer(smtpUrl: string, from: string, log: MailLog): Mailer {
  const options = smtpOptionsOf(smtpUrl);
  // Never the URL itself in a log or an error: it holds the password.
  const server = `${options.host}:${options.port}`;
  // One connection per message (no pool): the back office sends a few messages an hour.
  const transporter = createTransport(options);
  return {
    transport: 'smtp',
    async send(message) {
      try {
        const info = await transporter.sendMail(mailOptionsOf(message, from));
        const sent: SentMail = {
          transport: 'smtp',
          messageId: info.messageId,
          outboxId: null,
          accepted: info.accepted.map(addressOf),
          rejected: info.rejected.map(addressOf),
        };
        log.info({ mail: { ...sent, server, subject: message.subject } }, 'mail sent');
        return sent;
      } catch (error) {
        log.error(
          { err: error, mail: { transport: 'smtp', server, to: message.to, subject: message.subject } },
          'mail not sent',
        );
        throw new DomainError('UPSTREAM_UNAVAILABLE', `The message was not sent: ${reasonOf(error)}.`);
      }
    },
  };
}

function createOutboxMailer(dataDir: string, from: string, log: MailLog): Mailer {
  // nodemailer builds the message exactly as for SMTP and hands it back instead of sending it.
  const composer = createTransport({ streamTransport: true, buffer: true, newline: 'windows' });
  return {
    transport: 'outbox',
    async send(message) {
      try {
        const info = await composer.sendMail(mailOptionsOf(message, from));
        const outboxId = await writeOutboxMessage(dataDir, info.message as Buffer, message.secrets);
        const sent: SentMail = {
          transport: 'outbox',
          messageId: info.messageId,
          outboxId,
          accepted: info.envelope.to,
          rejected: [],
        };
        log.info(
          { mail: { ...sent, subject: message.subject, file: join(outboxDir(dataDir), `${outboxId}.eml`) } },
          'mail written to the outbox (SMTP_URL is not set)',
        );
        return sent;
      } catch (error) {
        log.error(
          { err: error, mail: { transport: 'outbox', to: message.to, subject: message.subject } },
          'mail not written to the outbox',
        );
        throw new Error(`The message could not be written to the outbox (${outboxDir(dataDir)})`, {
          cause: error,
        });
      }
    },
  };
}

/** smtp:// talks plain SMTP and upgrades with STARTTLS when offered; smtps:// is TLS from the start. */
export function smtpOptionsOf(smtpUrl: string): SMTPTransportOptions & { host: string; port: number } {
  const url = new URL(smtpUrl);
  const secure = url.protocol === 'smtps:';
  return {
    host: url.hostname.replace(/^\[|\]$/g, ''),
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    secure,
    ...(url.username
      ? { auth: { user: decodeURIComponent(url.username), pass: decodeURIComponent(url.password) } }
      : {}),
    // A staff request waits for the send: fail in seconds, not nodemailer's minutes.
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 30_000,
  };
}

function mailOptionsOf(message: MailMessage, from: string): SendMailOptions {
  return {
    from,
    to: message.to,
    ...(message.replyTo ? { replyTo: message.replyTo } : {}),
    subject: message.subject,
    text: message.text,
    html: message.html,
  };
}

/** Why a send failed, for the person who asked for it; the log has the server's own words. */
function reasonOf(error: unknown): string {
  switch ((error as NodemailerError).code) {
    case 'ECONNECTION':
    case 'ETIMEDOUT':
    case 'ESOCKET':
    case 'EDNS':
    case 'ETLS':
      return 'the mail server could not be reached';
    case 'EAUTH':
    case 'ENOAUTH':
      return 'the mail server refused the sign-in (check the user and password in SMTP_URL)';
    case 'EENVELOPE':
      return 'the mail server refused the sender or the recipient';
    default:
      return 'the mail server refused the message';
  }
}

function addressOf(address: string | { address: string }): string {
  return typeof address === 'string' ? address : address.address;
}
