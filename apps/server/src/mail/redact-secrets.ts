import { OUTBOX_REDACTED_SECRET, type OutboxRedaction } from '@bytegate/contracts/admin-support';
import { escapeHtml } from './templates.ts';

/**
 * How the outbox carries the secrets a template marked (`MailContent.secrets`) from the send to the
 * console: one header on the `.eml` file, the JSON array of the secrets in base64url. The file is the
 * addressee's copy, which holds the secrets anyway; the header only says which strings they are, so the
 * console can redact them exactly, never by guessing at what looks like a link. It is never sent by SMTP.
 */
export const SECRETS_HEADER = 'X-Bytegate-Secrets';

/** The header line (CRLF included) that marks a message's secrets; `[]` marks a message with none. */
export function secretsHeaderLine(secrets: readonly string[]): string {
  return `${SECRETS_HEADER}: ${Buffer.from(JSON.stringify(secrets), 'utf8').toString('base64url')}\r\n`;
}

/**
 * The secrets a header value names; null when there is no header or it is not one the outbox wrote
 * (then nothing says which strings are secret, and the body must not be shown).
 */
export function secretsOfHeader(value: unknown): string[] | null {
  if (typeof value !== 'string' || !/^[A-Za-z0-9_-]*$/.test(value.trim())) {
    return null;
  }
  try {
    const secrets: unknown = JSON.parse(Buffer.from(value.trim(), 'base64url').toString('utf8'));
    if (!Array.isArray(secrets) || !secrets.every((secret) => typeof secret === 'string' && secret !== '')) {
      return null;
    }
    return secrets as string[];
  } catch {
    return null;
  }
}

/** What the console may show of a message whose header named these secrets (null: no header). */
export function redactionOf(secrets: readonly string[] | null): OutboxRedaction {
  return secrets === null ? 'withheld' : secrets.length > 0 ? 'redacted' : 'none';
}

/**
 * `text` with every occurrence of each secret replaced by `OUTBOX_REDACTED_SECRET`: as written, and as
 * the HTML part writes it (`&` as `&amp;`), longest first so a secret inside another goes with it.
 */
export function redactSecrets(text: string, secrets: readonly string[]): string {
  const forms = [...new Set(secrets.flatMap((secret) => [secret, escapeHtml(secret)]))]
    .filter((form) => form !== '')
    .sort((a, b) => b.length - a.length);
  return forms.reduce((redacted, form) => redacted.split(form).join(OUTBOX_REDACTED_SECRET), text);
}
