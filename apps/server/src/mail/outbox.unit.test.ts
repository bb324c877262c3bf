import { mkdtemp, readdir, readFile, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { OUTBOX_REDACTED_SECRET } from '@bytegate/contracts/admin-support';
import { simpleParser } from 'mailparser';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { loadConfig } from '../config.ts';
import { createMailer, type Mailer } from './mailer.ts';
import { listOutbox, OUTBOX_LIST_MAX, readOutboxMessage } from './outbox.ts';
import { contactReply, emailChangeConfirmation, passwordReset, threadRequestDecision } from './templates.ts';
import { createRecordingLog } from './testing/recording-log.ts';

// Without SMTP_URL every message becomes an .eml file under DATA_DIR/outbox, listed newest first.

let dataDir: string;
let mailer: Mailer;
let log: ReturnType<typeof createRecordingLog>;

beforeEach(async () => {
  dataDir = await mkdtemp(join(tmpdir(), 'bytegate-outbox-'));
  log = createRecordingLog();
  mailer = createMailer(loadConfig({ DATA_DIR: dataDir }), log);
});
afterEach(async () => {
  await rm(dataDir, { recursive: true, force: true });
});

const reply = contactReply({
  name: 'Zoë <b>',
  subject: 'Ünïcode & more',
  originalMessage: 'Hi',
  reply: 'Hello back',
});

describe('the outbox mailer', () => {
  it('writes one RFC 5322 .eml file per message, which a mail parser reads back whole', async () => {
    expect(mailer.transport).toBe('outbox');
    const sent = await mailer.send({ to: 'Zoë Adams <zoe@example.com>', ...reply });

    expect(sent).toMatchObject({ transport: 'outbox', accepted: ['zoe@example.com'], rejected: [] });
    expect(sent.outboxId).toMatch(/^\d{8}T\d{9}Z-[0-9a-f]{12}$/);
    expect(await readdir(join(dataDir, 'outbox'))).toEqual([`${sent.outboxId}.eml`]);
    const source = await readFile(join(dataDir, 'outbox', `${sent.outboxId}.eml`));
    expect(source.toString('latin1')).toMatch(/\r\n\r\n/);
    const parsed = await simpleParser(source);
    expect(parsed.from?.value).toEqual([{ name: 'Bytegate', address: 'no-reply@localhost' }]);
    expect(parsed.to).toMatchObject({ value: [{ name: 'Zoë Adams', address: 'zoe@example.com' }] });
    expect(parsed.subject).toBe('Re: Ünïcode & more');
    expect(parsed.messageId).toBe(sent.messageId);
    expect(parsed.text).toContain('Hello Zoë <b>,');
    expect(parsed.html).toContain('Hello Zoë &lt;b&gt;,');
    expect(log.lines).toMatchObject([
      { level: 'info', args: [{ mail: { outboxId: sent.outboxId } }, expect.stringContaining('outbox')] },
    ]);
  });

  it('lists messages newest first with their recipients and subjects, and pages on', async () => {
    expect(await listOutbox(dataDir)).toEqual([]);
    const ids: string[] = [];
    for (const approved of [true, false, true]) {
      const content = threadRequestDecision({ name: 'Ann', planLabel: 'Mobile', approved, threadLimit: 50 });
      const sent = await mailer.send({ to: ['ann@example.com', 'Bob <bob@example.com>'], ...content });
      ids.push(sent.outboxId ?? '');
    }
    const third = await mailer.send({ to: 'Zoë Adams <zoe@example.com>', ...reply });

    const listed = await listOutbox(dataDir);
    expect(listed.map((entry) => entry.id)).toEqual([third.outboxId, ...ids.reverse()]);
    expect(listed[0]).toEqual({
      id: third.outboxId,
      createdAt: expect.stringMatching(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/),
      to: 'Zoë Adams <zoe@example.com>',
      subject: 'Re: Ünïcode & more',
      redaction: 'none',
    });
    expect(Date.parse(listed[0]?.createdAt ?? '')).toBeGreaterThan(Date.now() - 60_000);
    expect(listed[1]).toMatchObject({
      to: 'ann@example.com, Bob <bob@example.com>',
      subject: 'Thread limit raised: Mobile',
    });
    expect(listed[2]?.subject).toBe('Thread limit request declined: Mobile');

    const firstPage = await listOutbox(dataDir, { limit: 2 });
    expect(firstPage.map((entry) => entry.id)).toEqual(listed.slice(0, 2).map((entry) => entry.id));
    const nextPage = await listOutbox(dataDir, { limit: 2, before: firstPage[1]?.id });
    expect(nextPage.map((entry) => entry.id)).toEqual(listed.slice(2).map((entry) => entry.id));
  });

  it('ignores files it did not write and half-written ones', async () => {
    const sent = await mailer.send({ to: 'zoe@example.com', ...reply });
    await writeFile(join(dataDir, 'outbox', 'notes.eml'), 'Subject: mine\r\n\r\nhi');
    await writeFile(join(dataDir, 'outbox', '.20990101T000000000Z-000000000000.partial'), 'Subj');

    expect((await listOutbox(dataDir)).map((entry) => entry.id)).toEqual([sent.outboxId]);
    expect(await readOutboxMessage(dataDir, 'notes')).toBeNull();
  });

  it('bounds the page size', async () => {
    await mailer.send({ to: 'zoe@example.com', ...reply });
    expect(await listOutbox(dataDir, { limit: 0 })).toHaveLength(1);
    expect(OUTBOX_LIST_MAX).toBe(200);
  });
});

describe('readOutboxMessage', () => {
  it('reads one message with its text and HTML parts', async () => {
    const sent = await mailer.send({ to: 'zoe@example.com', replyTo: 'support@bytegate.example', ...reply });
    const message = await readOutboxMessage(dataDir, sent.outboxId ?? '');
    expect(message).toMatchObject({
      id: sent.outboxId,
      to: 'zoe@example.com',
      from: 'Bytegate <no-reply@localhost>',
      replyTo: 'support@bytegate.example',
      subject: 'Re: Ünïcode & more',
      isTruncated: false,
    });
    expect(message?.text).toBe(reply.text);
    expect(message?.html).toBe(reply.html);
    expect(message?.sizeBytes).toBeGreaterThan(reply.text.length);
  });

  it('answers null for unknown ids and ids that would leave the folder', async () => {
    expect(await readOutboxMessage(dataDir, '20250101T000000000Z-000000000000')).toBeNull();
    expect(await readOutboxMessage(dataDir, '../outbox/x')).toBeNull();
    expect(await readOutboxMessage(dataDir, '')).toBeNull();
  });

  it('reads only the headers of a file over 1 MiB', async () => {
    const id = '20250101T000000000Z-0123456789ab';
    await mailer.send({ to: 'zoe@example.com', ...reply }); // creates the folder
    const huge = `To: zoe@example.com\r\nSubject: Huge\r\nFrom: a@b.example\r\n\r\n${'x'.repeat(2 * 1024 * 1024)}`;
    await writeFile(join(dataDir, 'outbox', `${id}.eml`), huge);

    expect(await readOutboxMessage(dataDir, id)).toMatchObject({
      id,
      createdAt: '2025-01-01T00:00:00.000Z',
      subject: 'Huge',
      to: 'zoe@example.com',
      text: null,
      html: null,
      isTruncated: true,
      sizeBytes: huge.length,
    });
    expect((await listOutbox(dataDir)).at(-1)).toMatchObject({ id, subject: 'Huge' });
  });
});

describe('one-time links in the outbox', () => {
  const link = 'http://localhost:3000/reset-password?token=abc_DEF-123&lang=en';
  const reset = passwordReset({ name: 'Zoë', link, validMinutes: 30 });

  it('keeps the link in the file (the addressee reads it there) and redacts it from what staff read', async () => {
    const sent = await mailer.send({ to: 'zoe@example.com', ...reset });
    const file = await readFile(join(dataDir, 'outbox', `${sent.outboxId}.eml`));
    const parsed = await simpleParser(file);
    expect(parsed.text).toContain(link);
    expect(parsed.html).toContain('token=abc_DEF-123&amp;lang=en');

    const message = await readOutboxMessage(dataDir, sent.outboxId ?? '');
    expect(message).toMatchObject({ subject: 'Reset your Bytegate password', redaction: 'redacted' });
    expect(JSON.stringify(message)).not.toContain('abc_DEF-123');
    expect(message?.text).toBe(reset.text.replace(link, OUTBOX_REDACTED_SECRET));
    // The button's address and the address written out below it: both go.
    expect(message?.html?.split(OUTBOX_REDACTED_SECRET)).toHaveLength(4);
    expect(message?.html).toContain('Choose a new password');
    expect((await listOutbox(dataDir))[0]).toMatchObject({ id: sent.outboxId, redaction: 'redacted' });
  });

  it('redacts a secret wherever the template put it, the subject included', async () => {
    const content = emailChangeConfirmation({ name: 'Zoë', newEmail: 'z@example.org', link, validHours: 24 });
    const sent = await mailer.send({ to: 'z@example.org', ...content, subject: `Your link ${link}` });
    expect((await readOutboxMessage(dataDir, sent.outboxId ?? ''))?.subject).toBe(
      `Your link ${OUTBOX_REDACTED_SECRET}`,
    );
    expect((await listOutbox(dataDir))[0]?.subject).toBe(`Your link ${OUTBOX_REDACTED_SECRET}`);
  });

  it('shows only the headers of a file that does not say which are its secrets', async () => {
    const id = '20250101T000000000Z-00000000cafe';
    await mailer.send({ to: 'zoe@example.com', ...reply }); // creates the folder
    const source = `To: zoe@example.com\r\nSubject: Old reset\r\n\r\nOpen ${link}\r\n`;
    await writeFile(join(dataDir, 'outbox', `${id}.eml`), source);
    await writeFile(
      join(dataDir, 'outbox', '20250101T000000001Z-00000000beef.eml'),
      `X-Bytegate-Secrets: not base64 json\r\n${source}`,
    );

    for (const unmarked of [id, '20250101T000000001Z-00000000beef']) {
      expect(await readOutboxMessage(dataDir, unmarked)).toMatchObject({
        subject: 'Old reset',
        redaction: 'withheld',
        text: null,
        html: null,
      });
    }
    expect((await listOutbox(dataDir)).at(-1)).toMatchObject({ id, redaction: 'withheld' });
  });
});
