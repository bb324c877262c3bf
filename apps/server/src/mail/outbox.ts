import { randomBytes } from 'node:crypto';
import { mkdir, open, readdir, rename, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import type { OutboxRedaction } from '@bytegate/contracts/admin-support';
import type { AddressObject, ParsedMail } from 'mailparser';
import {
  redactionOf,
  redactSecrets,
  SECRETS_HEADER,
  secretsHeaderLine,
  secretsOfHeader,
} from './redact-secrets.ts';

/**
 * The outbox: where mail goes when no SMTP server is set (SMTP_URL unset), so a fresh clone can see
 * what would have been sent. One RFC 5322 `.eml` file per message under `DATA_DIR/outbox`, named
 * `<UTC time to the millisecond>-<random>.eml`: names sort by time, and any mail client opens them.
 * Reading is bounded: a listing reads at most the first 64 KiB of each file, a message at most 1 MiB.
 *
 * The files are the addressees' mailboxes: a developer reads a reset link from disk. What this module
 * answers (the console's Outbox) is for staff, so the one-time links a template marked as secrets are
 * redacted from the subject, the text and the HTML, and a file that does not say which are its secrets
 * shows its headers only (see redact-secrets.ts).
 */

export interface OutboxEntry {
  /** The file name without `.eml`, e.g. `20250102T030405678Z-9f86d081884c`. */
  id: string;
  /** When the message was written (ISO 8601), from its name. */
  createdAt: string;
  /** The To header as written, e.g. `Ann Lee <ann@example.com>`. */
  to: string;
  subject: string;
  /** What may be shown of the body: whole, with its one-time links redacted, or not at all. */
  redaction: OutboxRedaction;
}

export interface OutboxMessage extends OutboxEntry {
  from: string;
  replyTo: string | null;
  /** The plain-text part, secrets redacted; null when there is none, over the reading bound, or withheld. */
  text: string | null;
  /**
   * The HTML part as sent: it is the sender's markup, so show it only in a sandboxed frame (no scripts,
   * no same origin). Secrets redacted; null as `text`.
   */
  html: string | null;
  sizeBytes: number;
  /** The file is larger than the reading bound: its headers are read, its body is not (open the file). */
  isTruncated: boolean;
}

export const OUTBOX_FOLDER = 'outbox';
export const OUTBOX_LIST_MAX = 200;
const OUTBOX_LIST_DEFAULT = 50;
const HEADER_READ_BYTES = 64 * 1024;
const MESSAGE_READ_BYTES = 1024 * 1024;
const ID_PATTERN = /^(\d{4})(\d{2})(\d{2})T(\d{2})(\d{2})(\d{2})(\d{3})Z-[0-9a-f]{12}$/;

/** The outbox folder under a data directory. */
export function outboxDir(dataDir: string): string {
  return join(dataDir, OUTBOX_FOLDER);
}

// Strictly increasing within the process, so two messages written in the same millisecond still list
// in the order they were sent.
let lastWrittenMs = 0;

/**
 * Writes one message (its RFC 5322 source) to the outbox and answers its id. `secrets` are the one-time
 * links its template marked (`MailContent.secrets`, `[]` for none): the file says which they are, so the
 * console shows them redacted.
 */
export async function writeOutboxMessage(
  dataDir: string,
  source: Buffer,
  secrets: readonly string[],
): Promise<string> {
  const ms = Math.max(Date.now(), lastWrittenMs + 1);
  lastWrittenMs = ms;
  const id = `${new Date(ms).toISOString().replace(/[-:.]/g, '')}-${randomBytes(6).toString('hex')}`;
  const dir = outboxDir(dataDir);
  // The owner's only: a message holds live sign-in and reset links.
  await mkdir(dir, { recursive: true, mode: 0o700 });
  // Written aside, then renamed: a listing never sees half a message.
  const partial = join(dir, `.${id}.partial`);
  await writeFile(partial, Buffer.concat([Buffer.from(secretsHeaderLine(secrets)), source]), {
    flag: 'wx',
    mode: 0o600,
  });
  await rename(partial, join(dir, `${id}.eml`));
  return id;
}

/** The outbox's messages, newest first; `before` (an id) pages on to older ones. */
export async function listOutbox(
  dataDir: string,
  options: { limit?: number; before?: string } = {},
): Promise<OutboxEntry[]> {
  const limit = Math.min(Math.max(Math.trunc(options.limit ?? OUTBOX_LIST_DEFAULT), 1), OUTBOX_LIST_MAX);
  const ids = (await readOutboxNames(dataDir))
    .filter((id) => options.before === undefined || id < options.before)
    .sort()
    .reverse()
    .slice(0, limit);
  const entries = await Promise.all(
    ids.map(async (id) => {
      const head = await readHead(join(outboxDir(dataDir), `${id}.eml`));
      if (!head) {
        return null;
      }
      const parsed = await parseMail(head);
      const secrets = secretsOf(parsed);
      return {
        id,
        createdAt: createdAtOf(id),
        to: addressText(parsed.to),
        subject: redactSecrets(parsed.subject ?? '', secrets ?? []),
        redaction: redactionOf(secrets),
      };
    }),
  );
  return entries.filter((entry) => entry !== null);
}

/**
 * One outbox message with its text and HTML parts as staff may read them (secrets redacted, or the body
 * withheld); null when there is no such message.
 */
export async function readOutboxMessage(dataDir: string, id: string): Promise<OutboxMessage | null> {
  // Only names the outbox writes are read: an id can never climb out of the folder.
  if (!ID_PATTERN.test(id)) {
    return null;
  }
  const file = await openIfExists(join(outboxDir(dataDir), `${id}.eml`));
  if (!file) {
    return null;
  }
  try {
    const { size } = await file.stat();
    const isTruncated = size > MESSAGE_READ_BYTES;
    const source = isTruncated
      ? headerBlock(await readUpTo(file, HEADER_READ_BYTES))
      : await readUpTo(file, size);
    const parsed = await parseMail(source);
    const secrets = secretsOf(parsed);
    // No header naming the secrets: nothing says which strings to redact, so the body is not shown.
    const isBodyShown = !isTruncated && secrets !== null;
    const redact = (value: string) => redactSecrets(value, secrets ?? []);
    return {
      id,
      createdAt: createdAtOf(id),
      to: addressText(parsed.to),
      subject: redact(parsed.subject ?? ''),
      redaction: redactionOf(secrets),
      from: addressText(parsed.from),
      replyTo: parsed.replyTo ? addressText(parsed.replyTo) : null,
      text: isBodyShown && parsed.text !== undefined ? redact(parsed.text) : null,
      html: isBodyShown && parsed.html ? redact(parsed.html) : null,
      sizeBytes: size,
      isTruncated,
    };
  } finally {
    await file.close();
  }
}

/** mailparser, loaded on first read: only the console's Outbox reads mail, so start-up does not pay for it. */
async function parseMail(source: Buffer): Promise<ParsedMail> {
  const { simpleParser } = await import('mailparser');
  return simpleParser(source, { skipImageLinks: true, skipTextToHtml: true });
}

/** The secrets the message's header names; null when it names none (see redact-secrets.ts). */
function secretsOf(parsed: ParsedMail): string[] | null {
  return secretsOfHeader(parsed.headers.get(SECRETS_HEADER.toLowerCase()));
}

async function readOutboxNames(dataDir: string): Promise<string[]> {
  try {
    const names = await readdir(outboxDir(dataDir));
    return names
      .filter((name) => name.endsWith('.eml'))
      .map((name) => name.slice(0, -'.eml'.length))
      .filter((id) => ID_PATTERN.test(id));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return [];
    }
    throw error;
  }
}

/** The header block of a file (at most its first 64 KiB); null when it vanished meanwhile. */
async function readHead(path: string): Promise<Buffer | null> {
  const file = await openIfExists(path);
  if (!file) {
    return null;
  }
  try {
    return headerBlock(await readUpTo(file, HEADER_READ_BYTES));
  } finally {
    await file.close();
  }
}

async function openIfExists(path: string) {
  try {
    return await open(path, 'r');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') {
      return null;
    }
    throw error;
  }
}

async function readUpTo(file: Awaited<ReturnType<typeof open>>, maxBytes: number): Promise<Buffer> {
  const buffer = Buffer.alloc(maxBytes);
  let length = 0;
  while (length < maxBytes) {
    const { bytesRead } = await file.read(buffer, length, maxBytes - length, length);
    if (bytesRead === 0) {
      break;
    }
    length += bytesRead;
  }
  return buffer.subarray(0, length);
}

/** The headers up to the blank line that ends them (or up to the last whole line read). */
function headerBlock(bytes: Buffer): Buffer {
  const crlf = bytes.indexOf('\r\n\r\n');
  const lf = bytes.indexOf('\n\n');
  const end = crlf !== -1 ? crlf + 2 : lf !== -1 ? lf + 1 : bytes.lastIndexOf('\n') + 1;
  return Buffer.concat([bytes.subarray(0, end), Buffer.from('\r\n')]);
}

function createdAtOf(id: string): string {
  const match = ID_PATTERN.exec(id);
  if (!match) {
    return new Date(0).toISOString();
  }
  const [, year, month, day, hour, minute, second, ms] = match;
  return `${year}-${month}-${day}T${hour}:${minute}:${second}.${ms}Z`;
}

/** Addresses as people write them: `Ann Lee <ann@example.com>, bob@example.com`. */
function addressText(address: AddressObject | AddressObject[] | undefined): string {
  const entries = (Array.isArray(address) ? address : address ? [address] : []).flatMap((header) =>
    header.value.flatMap((entry) => entry.group ?? [entry]),
  );
  return entries
    .map((entry) => (entry.name ? `${entry.name} <${entry.address ?? ''}>` : (entry.address ?? '')))
    .join(', ');
}
