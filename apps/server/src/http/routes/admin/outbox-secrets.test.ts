import { mkdtempSync, rmSync } from 'node:fs';
import { readFile, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditResponse, CustomerDetailResponse } from '@bytegate/contracts/admin';
import {
  OUTBOX_REDACTED_SECRET,
  type OutboxMessageResponse,
  type OutboxResponse,
} from '@bytegate/contracts/admin-support';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { simpleParser } from 'mailparser';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole } from '../../../testing/staff.ts';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';
import { enableTwoFactorViaApi } from '../../../testing/two-factor.ts';

// Issue 28: without SMTP_URL the console's Outbox showed every mail whole, so support could ask a reset
// for an admin, read the link there and sign in as them. One-time links are the addressee's alone: the
// `.eml` file is their mailbox; the console and its API show the links redacted, and audit every read.

type Answer<T> = T & { error?: string; code?: string };
type Staff = Awaited<ReturnType<typeof createUserWithRole>>;

const LINK = /(https?:\/\/\S+\/(?:reset-password|verify-email)\?token=([A-Za-z0-9_-]+))/;

describe.each(testDatabaseKinds())('one-time links and the Outbox on %s', (kind) => {
  let server: TestServer;
  let dataDir: string;
  let admin: Staff;
  let support: Staff;
  beforeAll(async () => {
    dataDir = mkdtempSync(join(tmpdir(), 'bytegate-outbox-secrets-'));
    server = await startTestServer(kind, {
      dataDir,
      mail: { smtpUrl: null, from: 'Bytegate <no-reply@bytegate.test>' },
      emailVerification: 'required',
    });
    admin = await createUserWithRole(server, 'admin');
    support = await createUserWithRole(server, 'support');
  });
  afterAll(async () => {
    await server?.close();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const get = <T>(path: string, token: string) => server.request<Answer<T>>('GET', path, { token });
  const readAs = (id: string, staff: Staff) =>
    get<OutboxMessageResponse>(`/api/admin/outbox/${id}`, staff.token);

  /** Waits for the outbox to list a mail to `to` with `subject` (account mail is sent after the reply). */
  const outboxMailFor = async (to: string, subject: string) => {
    const deadline = Date.now() + 10_000;
    for (;;) {
      const listed = await get<OutboxResponse>('/api/admin/outbox', admin.token);
      const found = listed.body.messages.find(
        (message) => message.to.includes(to) && message.subject === subject,
      );
      if (found) {
        return found;
      }
      if (Date.now() > deadline) {
        throw new Error(`no "${subject}" for ${to} in the outbox`);
      }
      await new Promise((resolve) => setTimeout(resolve, 25));
    }
  };

  /** The link in the addressee's copy: the `.eml` file, read from disk as a developer would. */
  const addresseeLink = async (id: string) => {
    const parsed = await simpleParser(await readFile(join(dataDir, 'outbox', `${id}.eml`)));
    const match = LINK.exec(parsed.text ?? '');
    if (!match?.[1] || !match[2]) {
      throw new Error(`no one-time link in ${id}.eml`);
    }
    return { url: match[1], token: match[2] };
  };

  /** The message as staff read it carries none of the link: not in the subject, the text or the HTML. */
  const expectRedacted = (message: OutboxMessageResponse, link: { url: string; token: string }) => {
    expect(message.redaction).toBe('redacted');
    const answer = JSON.stringify(message);
    expect(answer).not.toContain(link.token);
    expect(answer).not.toContain(encodeURIComponent(link.token));
    expect(message.text).toContain(OUTBOX_REDACTED_SECRET);
    expect(message.html).toContain(OUTBOX_REDACTED_SECRET);
  };

  describe('GET /api/admin/outbox/:outboxId', () => {
    it("support cannot read the reset link asked for an admin's email; the addressee's file has it", async () => {
      // Another admin than the one reading: the reset signs its account out everywhere.
      const target = await createUserWithRole(server, 'admin');
      const asked = await server.request('POST', '/api/auth/forgot-password', {
        body: { email: target.email },
      });
      expect(asked.status).toBe(202);
      const listed = await outboxMailFor(target.email, 'Reset your Bytegate password');
      expect(listed.redaction).toBe('redacted');

      const link = await addresseeLink(listed.id);
      for (const reader of [support, admin]) {
        const read = await readAs(listed.id, reader);
        expect(read.status).toBe(200);
        expectRedacted(read.body, link);
        // The rest of the mail reads as sent.
        expect(read.body.text).toContain(`Hello Ada,`);
        expect(read.body.text).toContain(`\n${OUTBOX_REDACTED_SECRET}\n`);
        expect(read.body.text).toContain('The link works for 30 minutes, once.');
        expect(read.body.html).toContain('Choose a new password');
      }
      // The link staff could not read is a live one: the addressee sets a password with it.
      const reset = await server.request('POST', '/api/auth/reset-password', {
        body: { token: link.token, password: 'the admin chose this one' },
      });
      expect(reset.status).toBe(200);
    });

    it("nor a customer's links: password reset, email verification and change of email", async () => {
      const customer = await createUserViaApi(server);
      const verification = await outboxMailFor(customer.email, 'Verify your email for Bytegate');
      expect(
        (await server.request('POST', '/api/auth/forgot-password', { body: { email: customer.email } }))
          .status,
      ).toBe(202);
      const reset = await outboxMailFor(customer.email, 'Reset your Bytegate password');
      const newEmail = `moved.${Date.now()}@example.org`;
      const moved = await server.request('PUT', '/api/user-settings/profile', {
        token: customer.token,
        body: { firstName: 'Ada', lastName: 'Lovelace', email: newEmail, currentPassword: customer.password },
      });
      expect(moved.status).toBe(200);
      const change = await outboxMailFor(newEmail, 'Confirm your new email for Bytegate');

      for (const listed of [verification, reset, change]) {
        const read = await readAs(listed.id, support);
        expect(read.status).toBe(200);
        expectRedacted(read.body, await addresseeLink(listed.id));
      }
      // The notice to the old address carries no link that acts: shown whole.
      const notice = await outboxMailFor(customer.email, 'Your Bytegate email is about to change');
      expect(notice.redaction).toBe('none');
      expect((await readAs(notice.id, support)).body.text).toContain(`change its email to ${newEmail}`);
    });

    it('audits every read: who read which message, to whom it went; an unknown id reads nothing', async () => {
      const customer = await createUserViaApi(server);
      const listed = await outboxMailFor(customer.email, 'Verify your email for Bytegate');
      expect((await readAs(listed.id, support)).status).toBe(200);
      expect((await readAs(listed.id, support)).status).toBe(200);
      expect((await readAs(listed.id, admin)).status).toBe(200);

      const audit = await get<AuditResponse>(`/api/admin/audit?targetId=${listed.id}`, admin.token);
      const entry = (actor: Staff) => ({
        id: expect.any(String),
        createdAt: expect.any(String),
        actorEmail: actor.email,
        action: 'outbox.read',
        targetType: 'outbox_message',
        targetId: listed.id,
        before: null,
        after: { to: customer.email, subject: 'Verify your email for Bytegate', redaction: 'redacted' },
        reason: null,
      });
      expect(audit.body.entries).toEqual([entry(admin), entry(support), entry(support)]);

      const before = await queryRows(server, "select id from audit_log where action = 'outbox.read'");
      expect((await readAs('20200101T000000000Z-000000000000', support)).status).toBe(404);
      expect(await queryRows(server, "select id from audit_log where action = 'outbox.read'")).toHaveLength(
        before.length,
      );
    });

    it('shows only the headers of a file that does not say which are its secrets', async () => {
      const id = '20200101T000000000Z-0000000000aa';
      await writeFile(
        join(dataDir, 'outbox', `${id}.eml`),
        'To: old@example.org\r\nSubject: Written before\r\n\r\nhttp://x/reset-password?token=old\r\n',
      );
      const read = await readAs(id, support);
      expect(read.body).toMatchObject({
        subject: 'Written before',
        redaction: 'withheld',
        text: null,
        html: null,
      });
    });
  });

  describe('POST /api/admin/customers/:userId/password-reset', () => {
    const sendReset = (userId: string, token: string, body: unknown = { reason: 'locked out, ID checked' }) =>
      server.request<Answer<CustomerDetailResponse>>(
        'POST',
        `/api/admin/customers/${userId}/password-reset`,
        {
          token,
          body,
        },
      );
    const resetAudits = (userId: string) =>
      queryRows(
        server,
        `select actor_email, reason, after from audit_log where action = 'customer.password_reset.send' and target_id = '${userId}'`,
      );

    it('is refused without a session, to a customer, and without a reason', async () => {
      const customer = await createUserViaApi(server);
      const { userId } = await createUserWithRole(server, 'customer');
      expect((await server.request('POST', `/api/admin/customers/${userId}/password-reset`)).status).toBe(
        401,
      );
      expect((await sendReset(userId, customer.token)).status).toBe(403);
      expect((await sendReset(userId, support.token, {})).body).toEqual({
        error: 'Reason is required',
        code: 'VALIDATION_FAILED',
      });
      expect(await resetAudits(userId)).toEqual([]);
    });

    it("mails a working link to the customer's own address, which support reads redacted; audited", async () => {
      const customer = await createUserWithRole(server, 'customer');
      const answer = await sendReset(customer.userId, support.token);
      expect(answer.status).toBe(200);
      expect(answer.body.customer.id).toBe(customer.userId);

      const listed = await outboxMailFor(customer.email, 'Reset your Bytegate password');
      const link = await addresseeLink(listed.id);
      expectRedacted((await readAs(listed.id, support)).body, link);
      expect(await resetAudits(customer.userId)).toEqual([
        {
          actor_email: support.email,
          reason: 'locked out, ID checked',
          after: { to: customer.email, validMinutes: 30 },
        },
      ]);
      const reset = await server.request('POST', '/api/auth/reset-password', {
        body: { token: link.token, password: 'a new password for ada' },
      });
      expect(reset.status).toBe(200);
    });

    it("leaves a staff account's reset to an admin: support is refused, sending nothing", async () => {
      const target = await createUserWithRole(server, 'admin');
      const colleague = await createUserWithRole(server, 'support');
      for (const staff of [target, colleague]) {
        const refused = await sendReset(staff.userId, support.token);
        expect(refused.status).toBe(403);
        expect(refused.body).toEqual({
          error: 'Only an admin may do this: support cannot act on a staff account',
          code: 'FORBIDDEN',
        });
        expect(await resetAudits(staff.userId)).toEqual([]);
        expect(
          await queryRows(
            server,
            `select id from account_tokens where user_id = '${staff.userId}' and purpose = 'password_reset'`,
          ),
        ).toEqual([]);
      }
      const listed = await get<OutboxResponse>('/api/admin/outbox', admin.token);
      expect(
        listed.body.messages.filter((message) => message.subject.startsWith('Reset')),
      ).not.toContainEqual(expect.objectContaining({ to: expect.stringContaining(target.email) }));

      expect((await sendReset(colleague.userId, admin.token)).status).toBe(200);
      await outboxMailFor(colleague.email, 'Reset your Bytegate password');
    });

    it('refuses a disabled account and an unknown one', async () => {
      const customer = await createUserWithRole(server, 'customer');
      const disabled = await server.request('POST', `/api/admin/customers/${customer.userId}/disable`, {
        token: support.token,
        body: { reason: 'abuse report' },
      });
      expect(disabled.status).toBe(200);
      expect((await sendReset(customer.userId, support.token)).body).toEqual({
        error: 'This account is disabled: enable it before sending a reset link',
        code: 'CONFLICT',
      });
      expect((await sendReset('00000000-0000-4000-8000-000000000000', support.token)).status).toBe(404);
    });
  });

  describe('POST /api/admin/customers/:userId/two-factor/reset of a staff account', () => {
    it('is refused to support and left to an admin', async () => {
      const target = await createUserWithRole(server, 'admin');
      await enableTwoFactorViaApi(server, target);
      const reset = (token: string) =>
        server.request<Answer<CustomerDetailResponse>>(
          'POST',
          `/api/admin/customers/${target.userId}/two-factor/reset`,
          { token, body: { reason: 'lost phone, ID checked' } },
        );
      expect((await reset(support.token)).body).toMatchObject({ code: 'FORBIDDEN' });
      expect((await reset(admin.token)).status).toBe(200);
    });
  });
});
