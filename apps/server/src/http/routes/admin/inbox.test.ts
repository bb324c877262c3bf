import type { AuditResponse } from '@bytegate/contracts/admin';
import type {
  AssigneesResponse,
  ContactThreadResponse,
  InboxResponse,
} from '@bytegate/contracts/admin-support';
import { createContactMessage } from '@bytegate/db/queries';
import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createUserWithRole } from '../../../testing/staff.ts';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

// The support inbox over real HTTP: contact messages sent through POST /api/contact, listed, read as
// threads, moved between statuses, assigned and annotated by staff, each action in the audit log.
// Replies (which send mail) and the Outbox are in inbox-mail.test.ts.

type Staff = Awaited<ReturnType<typeof createUserWithRole>>;
type Answer<T> = T & { error?: string; code?: string };

const UNKNOWN_ID = '00000000-0000-4000-8000-000000000000';

describe.each(testDatabaseKinds())('the support inbox on %s', (kind) => {
  let server: TestServer;
  let support: Staff;
  let admin: Staff;
  let customer: Staff;
  beforeAll(async () => {
    server = await startTestServer(kind, {
      rateLimits: { contact: { max: 1000, windowMs: 60_000 } },
    });
    support = await createUserWithRole(server, 'support', { firstName: 'Sam', lastName: 'Support' });
    admin = await createUserWithRole(server, 'admin', { firstName: 'Ada', lastName: 'Admin' });
    customer = await createUserWithRole(server, 'customer', { firstName: 'Grace', lastName: 'Hopper' });
  });
  afterAll(async () => {
    await server?.close();
  });

  const inbox = async (query = '', token = support.token) => {
    const answer = await server.request<Answer<InboxResponse>>('GET', `/api/admin/inbox${query}`, { token });
    return answer;
  };
  const thread = (messageId: string) =>
    server.request<Answer<ContactThreadResponse>>('GET', `/api/admin/inbox/${messageId}`, {
      token: support.token,
    });
  const act = (messageId: string, action: string, body: unknown, token = support.token) =>
    server.request<Answer<ContactThreadResponse>>('POST', `/api/admin/inbox/${messageId}/${action}`, {
      token,
      body,
    });
  const auditOf = async (messageId: string) =>
    (
      await server.request<AuditResponse>('GET', `/api/admin/audit?targetId=${messageId}`, {
        token: support.token,
      })
    ).body.entries;

  /** Sends the contact form as a visitor would, and answers the message's id from the inbox. */
  async function sendContact(body: { name: string; email: string; subject?: string; message: string }) {
    const sent = await server.request('POST', '/api/contact', { body });
    expect(sent.status).toBe(201);
    const found = await inbox(`?q=${encodeURIComponent(body.message.split('\n')[0]?.slice(0, 100) ?? '')}`);
    const id = found.body.messages[0]?.id;
    if (!id) {
      throw new Error('the message is not in the inbox');
    }
    return id;
  }

  describe('GET /api/admin/inbox', () => {
    let older: string;
    let newer: string;
    beforeAll(async () => {
      older = await sendContact({
        name: 'Visitor Vic',
        email: 'vic@example.org',
        subject: 'Port 25',
        message: 'Can you open port 25 for our monitoring? We send alerts by mail.',
      });
      newer = await sendContact({
        name: 'Grace Hopper',
        email: customer.email.toUpperCase(),
        message: `A long question about 100%_coverage. ${'More words follow here. '.repeat(20)}`,
      });
    });

    it('lists messages newest first with a one-line preview and the counts per status', async () => {
      const answer = await inbox();
      expect(answer.status).toBe(200);
      expect(answer.body.messages.map((message) => message.id)).toEqual([newer, older]);
      expect(answer.body.messages[1]).toEqual({
        id: older,
        name: 'Visitor Vic',
        email: 'vic@example.org',
        subject: 'Port 25',
        preview: 'Can you open port 25 for our monitoring? We send alerts by mail.',
        status: 'new',
        assignee: null,
        replyCount: 0,
        noteCount: 0,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      });
      const preview = answer.body.messages[0]?.preview ?? '';
      expect(preview.length).toBeLessThanOrEqual(161);
      expect(preview).toMatch(/^A long question about 100%_coverage\. More words .*…$/);
      expect(answer.body.counts).toEqual({ all: 2, new: 2, open: 0, answered: 0, closed: 0 });
      expect(answer.body.pagination).toEqual({
        currentPage: 1,
        totalPages: 1,
        totalItems: 2,
        itemsPerPage: 25,
      });
    });

    it('searches name, email, subject and message (any case, wildcards as themselves)', async () => {
      const ids = async (q: string) =>
        (await inbox(`?q=${encodeURIComponent(q)}`)).body.messages.map((message) => message.id);
      expect(await ids('visitor vic')).toEqual([older]);
      expect(await ids('VIC@EXAMPLE')).toEqual([older]);
      expect(await ids('port 25')).toEqual([older]);
      expect(await ids('100%_cov')).toEqual([newer]);
      expect(await ids('%')).toEqual([newer]);
      expect(await ids('nothing like this')).toEqual([]);
      // The tabs count under the search.
      expect((await inbox('?q=vic')).body.counts).toEqual({
        all: 1,
        new: 1,
        open: 0,
        answered: 0,
        closed: 0,
      });
    });

    it('pages 25 at a time', async () => {
      for (let index = 0; index < 25; index++) {
        await createContactMessage(server.database.db, {
          name: `Bulk ${index}`,
          email: `bulk${index}@example.org`,
          message: `bulk message ${index}`,
          createdAt: new Date(Date.UTC(2020, 0, 1, 0, index)),
        });
      }
      const first = await inbox('?q=bulk');
      expect(first.body.pagination).toEqual({
        currentPage: 1,
        totalPages: 1,
        totalItems: 25,
        itemsPerPage: 25,
      });
      const all = await inbox();
      expect(all.body.pagination).toMatchObject({ totalPages: 2, totalItems: 27 });
      const second = await inbox('?page=2');
      // Newest first: the two oldest are on the last page.
      expect(second.body.messages.map((message) => message.name)).toEqual(['Bulk 1', 'Bulk 0']);
    });

    it('refuses a bad status, assignee, page or a search too long', async () => {
      const cases: Array<[string, string]> = [
        ['?status=pending', 'Status must be one of new, open, answered, closed'],
        ['?assignee=bob', 'Assignee must be one of anyone, me, unassigned'],
        ['?page=0', 'Page must be 1 or more'],
        ['?page=two', 'Page must be a number'],
        [`?q=${'x'.repeat(201)}`, 'Search must be at most 200 characters'],
      ];
      for (const [query, error] of cases) {
        const answer = await inbox(query);
        expect({ query, status: answer.status, body: answer.body }).toEqual({
          query,
          status: 400,
          body: { error, code: 'VALIDATION_FAILED' },
        });
      }
    });

    it("reads a thread: the message, the sender's address, and the account it matches", async () => {
      const answer = await thread(newer);
      expect(answer.status).toBe(200);
      expect(answer.body.message).toMatchObject({
        id: newer,
        name: 'Grace Hopper',
        subject: null,
        status: 'new',
        assignee: null,
        ipAddress: '127.0.0.1',
      });
      expect(answer.body.message.message).toContain('A long question about 100%_coverage.');
      // The email the visitor typed matches the customer's account, whatever its case.
      expect(answer.body.customer).toEqual({
        id: customer.userId,
        email: customer.email,
        firstName: 'Grace',
        lastName: 'Hopper',
        role: 'customer',
        status: 'active',
        matchedBy: 'email',
      });
      expect(answer.body.entries).toEqual([]);
      expect((await thread(older)).body.customer).toBeNull();

      // A message sent while signed in names the account itself, whatever email was typed.
      const signedIn = await createContactMessage(server.database.db, {
        name: 'Grace',
        email: 'someone-else@example.org',
        message: 'Written while signed in',
        userId: customer.userId,
      });
      expect((await thread(signedIn.id)).body.customer).toMatchObject({
        id: customer.userId,
        matchedBy: 'account',
      });
    });

    it('answers 400 for a malformed id and 404 for an unknown one', async () => {
      expect((await thread('nope')).body).toEqual({
        error: 'Message id must be a UUID',
        code: 'VALIDATION_FAILED',
      });
      const unknown = await thread(UNKNOWN_ID);
      expect(unknown.status).toBe(404);
      expect(unknown.body).toEqual({ error: 'No such message', code: 'NOT_FOUND' });
      for (const [action, body] of [
        ['status', { status: 'open' }],
        ['assign', { assigneeUserId: null }],
        ['notes', { body: 'hello' }],
      ] as const) {
        const answer = await act(UNKNOWN_ID, action, body);
        expect({ action, status: answer.status, body: answer.body }).toEqual({
          action,
          status: 404,
          body: { error: 'No such message', code: 'NOT_FOUND' },
        });
      }
    });
  });

  describe('actions on a thread', () => {
    let messageId: string;
    beforeAll(async () => {
      messageId = await sendContact({
        name: 'Ann Lee',
        email: 'ann@example.org',
        subject: 'Refund',
        message: 'I would like my money back for order BG-100001.',
      });
    });

    it('lists the staff a message may go to, the caller marked', async () => {
      const answer = await server.request<AssigneesResponse>('GET', '/api/admin/inbox/assignees', {
        token: support.token,
      });
      expect(answer.status).toBe(200);
      const ids = answer.body.assignees.map((staff) => staff.id);
      expect(ids).toEqual(expect.arrayContaining([support.userId, admin.userId]));
      expect(ids).not.toContain(customer.userId);
      expect(answer.body.assignees.find((staff) => staff.isMe)).toEqual({
        id: support.userId,
        email: support.email,
        firstName: 'Sam',
        lastName: 'Support',
        isMe: true,
      });
    });

    it('assigns to oneself (a new message opens), to another staff member, and to nobody', async () => {
      const mine = await act(messageId, 'assign', { assigneeUserId: support.userId });
      expect(mine.status).toBe(200);
      expect(mine.body.message).toMatchObject({
        status: 'open',
        assignee: { id: support.userId, email: support.email, firstName: 'Sam', lastName: 'Support' },
      });
      expect((await inbox('?assignee=me')).body.messages.map((message) => message.id)).toEqual([messageId]);
      expect((await inbox('?assignee=me', admin.token)).body.messages).toEqual([]);
      expect((await inbox('?assignee=unassigned')).body.messages.map((message) => message.id)).not.toContain(
        messageId,
      );

      // The same assignee again changes nothing and records nothing.
      await act(messageId, 'assign', { assigneeUserId: support.userId });
      const toAdmin = await act(messageId, 'assign', { assigneeUserId: admin.userId });
      expect(toAdmin.body.message.assignee?.id).toBe(admin.userId);
      const nobody = await act(messageId, 'assign', { assigneeUserId: null });
      expect(nobody.body.message).toMatchObject({ assignee: null, status: 'open' });

      const audit = (await auditOf(messageId)).filter((entry) => entry.action === 'contact.assign');
      expect(audit.map((entry) => [entry.actorEmail, entry.before, entry.after])).toEqual([
        [
          support.email,
          { assignee: admin.email, assigneeUserId: admin.userId, status: 'open' },
          { assignee: null, assigneeUserId: null, status: 'open' },
        ],
        [
          support.email,
          { assignee: support.email, assigneeUserId: support.userId, status: 'open' },
          { assignee: admin.email, assigneeUserId: admin.userId, status: 'open' },
        ],
        [
          support.email,
          { assignee: null, assigneeUserId: null, status: 'new' },
          { assignee: support.email, assigneeUserId: support.userId, status: 'open' },
        ],
      ]);
      expect(audit[0]).toMatchObject({ targetType: 'contact_message', targetId: messageId, reason: null });
    });

    it('refuses to assign a customer, an unknown account or a malformed id', async () => {
      const refusal = {
        error: 'Assignee must be a staff member whose account is active',
        code: 'VALIDATION_FAILED',
      };
      for (const assigneeUserId of [customer.userId, UNKNOWN_ID]) {
        const answer = await act(messageId, 'assign', { assigneeUserId });
        expect({ status: answer.status, body: answer.body }).toEqual({
          status: 400,
          body: { ...refusal, field: 'assigneeUserId' },
        });
      }
      expect((await act(messageId, 'assign', { assigneeUserId: 'x' })).body).toEqual({
        error: 'Assignee must be a UUID',
        code: 'VALIDATION_FAILED',
      });
      expect((await act(messageId, 'assign', {})).status).toBe(400);
    });

    it('sets the status, audits the change, and records nothing for the same status', async () => {
      const closed = await act(messageId, 'status', { status: 'closed' });
      expect(closed.status).toBe(200);
      expect(closed.body.message.status).toBe('closed');
      await act(messageId, 'status', { status: 'closed' });
      expect((await inbox('?status=closed')).body.messages.map((message) => message.id)).toEqual([messageId]);
      expect((await inbox('?status=closed')).body.counts.closed).toBe(1);

      const bad = await act(messageId, 'status', { status: 'done' });
      expect(bad.status).toBe(400);
      expect(bad.body).toEqual({
        error: 'Status must be one of new, open, answered, closed',
        code: 'VALIDATION_FAILED',
      });
      const statusEntries = (await auditOf(messageId)).filter((entry) => entry.action === 'contact.status');
      expect(statusEntries.map((entry) => [entry.before, entry.after])).toEqual([
        [{ status: 'open' }, { status: 'closed' }],
      ]);
    });

    it('adds internal notes in order, audited with their start, and refuses an empty or long one', async () => {
      const first = await act(
        messageId,
        'notes',
        { body: '  Checked the order: paid on time.  ' },
        admin.token,
      );
      expect(first.status).toBe(200);
      const second = await act(messageId, 'notes', { body: `Second note.\nTwo lines. ${'x'.repeat(300)}` });
      expect(
        second.body.entries.map((entry) => [entry.kind, entry.authorEmail, entry.mailMessageId]),
      ).toEqual([
        ['note', admin.email, null],
        ['note', support.email, null],
      ]);
      expect(second.body.entries[0]?.body).toBe('Checked the order: paid on time.');
      // A note never changes the status.
      expect(second.body.message.status).toBe('closed');
      expect((await inbox('?status=closed')).body.messages[0]).toMatchObject({ noteCount: 2, replyCount: 0 });

      const notes = (await auditOf(messageId)).filter((entry) => entry.action === 'contact.note');
      expect(notes).toHaveLength(2);
      expect(notes[1]).toMatchObject({
        actorEmail: admin.email,
        after: { note: 'Checked the order: paid on time.', entryId: first.body.entries[0]?.id },
      });
      expect(String(notes[0]?.after?.note)).toHaveLength(200);

      expect((await act(messageId, 'notes', { body: '   ' })).body).toEqual({
        error: 'Note is required',
        code: 'VALIDATION_FAILED',
      });
      expect((await act(messageId, 'notes', { body: 'x'.repeat(5001) })).body).toEqual({
        error: 'Note must be at most 5,000 characters',
        code: 'VALIDATION_FAILED',
      });
      expect((await act(messageId, 'notes', { body: 'bell \u0007' })).status).toBe(400);
      const rows = await queryRows<{ total: number }>(
        server,
        `select count(*)::int as total from contact_message_entries where message_id = '${messageId}'`,
      );
      expect(rows).toEqual([{ total: 2 }]);
    });
  });
});
