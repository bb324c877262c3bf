import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

describe.each(testDatabaseKinds())('contact API on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  describe('POST /api/contact', () => {
    it('refuses a message without the required fields', async () => {
      const { status, body } = await server.request('POST', '/api/contact', {
        body: { name: 'Ann', email: 'ann@example.com', message: '   ' },
      });
      expect(status).toBe(400);
      expect(body).toEqual({ error: 'Message is required', code: 'VALIDATION_FAILED' });
    });

    it('stores the message without signing in; the subject is optional', async () => {
      const { status, body } = await server.request('POST', '/api/contact', {
        body: { name: 'Ann', email: 'Ann@Example.com', subject: '', message: 'Can I get 500 threads?' },
      });
      expect(status).toBe(201);
      expect(body).toEqual({ success: true });
      const rows = await queryRows(server, 'select name, email, subject, message from contact_messages');
      expect(rows).toContainEqual({
        name: 'Ann',
        email: 'ann@example.com',
        subject: null,
        message: 'Can I get 500 threads?',
      });
    });

    it("links a signed-in sender's message to their account, and no one's for a bad token", async () => {
      const user = await createUserViaApi(server);
      const signedIn = await server.request('POST', '/api/contact', {
        token: user.token,
        body: { name: 'Signed', email: 'other@example.com', message: 'Linked to my account' },
      });
      expect(signedIn.status).toBe(201);
      const expired = await server.request('POST', '/api/contact', {
        token: 'not-a-session',
        body: { name: 'Nobody', email: 'nobody@example.com', message: 'Not linked to anyone' },
      });
      expect(expired.status).toBe(201);
      const rows = await queryRows<{ message: string; user_email: string | null }>(
        server,
        `select m.message, u.email as user_email from contact_messages m left join users u on u.id = m.user_id
          where m.message in ('Linked to my account', 'Not linked to anyone') order by m.message`,
      );
      expect(rows).toEqual([
        { message: 'Linked to my account', user_email: user.email },
        { message: 'Not linked to anyone', user_email: null },
      ]);
    });
  });
});
