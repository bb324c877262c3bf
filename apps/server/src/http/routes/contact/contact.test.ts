import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { queryRows, startTestServer, type TestServer } from '../../../testing/test-server.ts';

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
  });
});
