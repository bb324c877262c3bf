import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditResponse } from '@bytegate/contracts/admin';
import type {
  ContactThreadResponse,
  InboxResponse,
  OutboxMessageResponse,
  OutboxResponse,
} from '@bytegate/contracts/admin-support';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { writeOutboxMessage } from '../../../mail/outbox.ts';
import { type SmtpSink, startSmtpSink } from '../../../mail/testing/smtp-sink.ts';
import { createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// Replies mailed from the inbox, over real HTTP: through a real SMTP server (smtp-server on 127.0.0.1)
// when SMTP_URL is set, and into the outbox folder the console lists when it is not.

type Answer<T> = T & { error?: string; code?: string };

/** A staff member and helpers on one running server. */
async function openInbox(server: TestServer) {
  const staff = await createUserWithRole(server, 'support');
  const send = async (body: { name: string; email: string; subject?: string; message: string }) => {
    expect((await server.request('POST', '/api/contact', { body })).status).toBe(201);
    const found = await server.request<InboxResponse>(
      'GET',
      `/api/admin/inbox?q=${encodeURIComponent(body.message.split('\n')[0]?.slice(0, 100) ?? '')}`,
      { token: staff.token },
    );
    const id = found.body.messages[0]?.id;
    if (!id) {
      throw new Error('the message is not in the inbox');
    }
    return id;
  };
  const reply = (messageId: string, body: unknown) =>
    server.request<Answer<ContactThreadResponse>>('POST', `/api/admin/inbox/${messageId}/replies`, {
      token: staff.token,
      body,
    });
  const get = <T>(path: string) => server.request<Answer<T>>('GET', path, { token: staff.token });
  return { staff, send, reply, get };
}

describe.each(testDatabaseKinds())('replies and the outbox on %s', (kind) => {
  describe('with SMTP_URL set', () => {
    let server: TestServer;
    let sink: SmtpSink;
    let dataDir: string;
    let inbox: Awaited<ReturnType<typeof openInbox>>;
    beforeAll(async () => {
      sink = await startSmtpSink();
      dataDir = mkdtempSync(join(tmpdir(), 'bytegate-inbox-smtp-'));
      server = await startTestServer(kind, {
        dataDir,
        mail: { smtpUrl: `smtp://127.0.0.1:${sink.port}`, from: 'Bytegate Support <support@bytegate.test>' },
      });
      inbox = await openInbox(server);
    });
    afterAll(async () => {
      await server?.close();
      await sink?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('mails the reply to the sender, quoting the message, and keeps it in the thread as answered', async () => {
      const messageId = await inbox.send({
        name: 'Ann "the <boss>" Lee',
        email: 'ann@example.org',
        subject: 'Invoice & refund',
        message: 'Where is my <b>invoice</b>?\nThanks',
      });
      const answer = await inbox.reply(messageId, { body: '  It is under Billing > Invoices.\n\nRegards  ' });
      expect(answer.status).toBe(200);

      expect(sink.received).toHaveLength(1);
      const [mail] = sink.received;
      expect(mail?.rcptTo).toEqual(['ann@example.org']);
      expect(mail?.mailFrom).toBe('support@bytegate.test');
      const parsed = mail?.parsed;
      expect(parsed?.subject).toBe('Re: Invoice & refund');
      expect(parsed?.to).toMatchObject({ value: [{ name: 'Ann the boss Lee', address: 'ann@example.org' }] });
      expect(parsed?.text).toContain('Hello Ann "the <boss>" Lee,');
      expect(parsed?.text).toContain('It is under Billing > Invoices.\n\nRegards\n');
      expect(parsed?.text).toContain('You wrote:\n> Where is my <b>invoice</b>?\n> Thanks');
      expect(parsed?.html).toContain('It is under Billing &gt; Invoices.');
      expect(parsed?.html).toContain('Where is my &lt;b&gt;invoice&lt;/b&gt;?');
      expect(parsed?.html).not.toContain('<b>');

      // The thread keeps the reply with the Message-ID the customer's mail server got.
      expect(answer.body.message.status).toBe('answered');
      expect(answer.body.entries).toEqual([
        {
          id: expect.any(String),
          kind: 'reply',
          authorEmail: inbox.staff.email,
          body: 'It is under Billing > Invoices.\n\nRegards',
          mailMessageId: parsed?.messageId,
          createdAt: expect.any(String),
        },
      ]);
      const audit = await inbox.get<AuditResponse>(`/api/admin/audit?targetId=${messageId}`);
      expect(audit.body.entries).toEqual([
        expect.objectContaining({
          action: 'contact.reply',
          actorEmail: inbox.staff.email,
          targetType: 'contact_message',
          before: { status: 'new' },
          after: {
            status: 'answered',
            to: 'ann@example.org',
            reply: 'It is under Billing > Invoices.\n\nRegards',
            mailMessageId: parsed?.messageId,
            entryId: answer.body.entries[0]?.id,
          },
        }),
      ]);
      // With SMTP nothing is kept locally; the Outbox says where mail goes.
      const outbox = await inbox.get<OutboxResponse>('/api/admin/outbox');
      expect(outbox.body).toEqual({ transport: 'smtp', messages: [], nextBefore: null });
    });

    it("answers a message without a subject as 'Re: your message to Bytegate'", async () => {
      const messageId = await inbox.send({
        name: 'Bob',
        email: 'bob@example.org',
        message: 'Hi there, a question',
      });
      expect((await inbox.reply(messageId, { body: 'Hello Bob' })).status).toBe(200);
      expect(sink.received.at(-1)?.parsed.subject).toBe('Re: your message to Bytegate');
    });

    it('refuses an empty or long reply and an unknown message, sending nothing', async () => {
      const messageId = await inbox.send({ name: 'Cy', email: 'cy@example.org', message: 'Refusals here' });
      const before = sink.received.length;
      expect((await inbox.reply(messageId, { body: ' ' })).body).toEqual({
        error: 'Reply is required',
        code: 'VALIDATION_FAILED',
      });
      expect((await inbox.reply(messageId, { body: 'x'.repeat(10_001) })).body).toEqual({
        error: 'Reply must be at most 10,000 characters',
        code: 'VALIDATION_FAILED',
      });
      const unknown = await inbox.reply('00000000-0000-4000-8000-000000000000', { body: 'Hello' });
      expect(unknown.status).toBe(404);
      expect(sink.received.length).toBe(before);
    });

    it('answers 503 when the mail server is gone, and keeps no reply', async () => {
      const messageId = await inbox.send({
        name: 'Dee',
        email: 'dee@example.org',
        message: 'Server down test',
      });
      await sink.close();
      const answer = await inbox.reply(messageId, { body: 'This cannot be sent' });
      expect(answer.status).toBe(503);
      expect(answer.body).toEqual({
        error: 'The message was not sent: the mail server could not be reached.',
        code: 'UPSTREAM_UNAVAILABLE',
      });
      const thread = await inbox.get<ContactThreadResponse>(`/api/admin/inbox/${messageId}`);
      expect(thread.body.message.status).toBe('new');
      expect(thread.body.entries).toEqual([]);
      const audit = await queryRows(server, `select * from audit_log where target_id = '${messageId}'`);
      expect(audit).toEqual([]);
    });
  });

  describe('without SMTP_URL', () => {
    let server: TestServer;
    let dataDir: string;
    let inbox: Awaited<ReturnType<typeof openInbox>>;
    beforeAll(async () => {
      dataDir = mkdtempSync(join(tmpdir(), 'bytegate-inbox-outbox-'));
      server = await startTestServer(kind, {
        dataDir,
        mail: { smtpUrl: null, from: 'Bytegate <no-reply@bytegate.test>' },
      });
      inbox = await openInbox(server);
    });
    afterAll(async () => {
      await server?.close();
      rmSync(dataDir, { recursive: true, force: true });
    });

    it('writes the reply to the outbox, which lists it and shows its headers, text and HTML', async () => {
      const empty = await inbox.get<OutboxResponse>('/api/admin/outbox');
      expect(empty.body).toEqual({ transport: 'outbox', messages: [], nextBefore: null });

      const messageId = await inbox.send({
        name: 'Eve',
        email: 'eve@example.org',
        subject: 'Port 25',
        message: 'Please open port 25.',
      });
      const answer = await inbox.reply(messageId, { body: 'Opened <now>.' });
      expect(answer.status).toBe(200);
      expect(answer.body.message.status).toBe('answered');

      const listed = await inbox.get<OutboxResponse>('/api/admin/outbox');
      expect(listed.body.transport).toBe('outbox');
      expect(listed.body.messages).toEqual([
        {
          id: expect.stringMatching(/^\d{8}T\d{9}Z-[0-9a-f]{12}$/),
          createdAt: expect.any(String),
          to: 'Eve <eve@example.org>',
          subject: 'Re: Port 25',
          redaction: 'none',
        },
      ]);
      const id = listed.body.messages[0]?.id ?? '';
      const message = await inbox.get<OutboxMessageResponse>(`/api/admin/outbox/${id}`);
      expect(message.status).toBe(200);
      expect(message.body).toMatchObject({
        id,
        from: 'Bytegate <no-reply@bytegate.test>',
        to: 'Eve <eve@example.org>',
        replyTo: null,
        subject: 'Re: Port 25',
        isTruncated: false,
      });
      expect(message.body.text).toContain('Opened <now>.');
      expect(message.body.text).toContain('> Please open port 25.');
      expect(message.body.html).toContain('Opened &lt;now&gt;.');
      expect(message.body.sizeBytes).toBeGreaterThan(500);
    });

    it('pages older messages with `before`, and refuses a malformed or unknown id', async () => {
      for (let index = 0; index < 50; index++) {
        await writeOutboxMessage(
          dataDir,
          Buffer.from(`To: n${index}@example.org\r\nSubject: Filler ${index}\r\n\r\nBody ${index}\r\n`),
          [],
        );
      }
      const first = await inbox.get<OutboxResponse>('/api/admin/outbox');
      expect(first.body.messages).toHaveLength(50);
      expect(first.body.messages[0]?.subject).toBe('Filler 49');
      expect(first.body.nextBefore).toBe(first.body.messages[49]?.id);
      const second = await inbox.get<OutboxResponse>(`/api/admin/outbox?before=${first.body.nextBefore}`);
      expect(second.body.messages.map((message) => message.subject)).toEqual(['Re: Port 25']);
      expect(second.body.nextBefore).toBeNull();

      const malformed = await inbox.get('/api/admin/outbox/..%2F..%2Fetc%2Fpasswd');
      expect(malformed.status).toBe(400);
      expect(malformed.body).toEqual({
        error: 'Outbox id is not a message of the outbox',
        code: 'VALIDATION_FAILED',
      });
      const unknown = await inbox.get('/api/admin/outbox/20200101T000000000Z-000000000000');
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'No such message in the outbox', code: 'NOT_FOUND' });
      expect((await inbox.get('/api/admin/outbox?before=yesterday')).status).toBe(400);
    });
  });
});
