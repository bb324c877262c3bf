import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';

describe.each(testDatabaseKinds())('user settings API on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startTestServer(kind);
  });
  afterAll(async () => {
    await server.close();
  });

  const login = (email: string, password: string) =>
    server.request<{ token: string }>('POST', '/api/auth/login', { body: { email, password } });

  describe('PUT /api/user-settings/password', () => {
    it('answers 401 without a token', async () => {
      const { status } = await server.request('PUT', '/api/user-settings/password', {
        body: { currentPassword: 'x', newPassword: 'y' },
      });
      expect(status).toBe(401);
    });

    it('refuses a new password under 8 characters', async () => {
      const { token, password } = await createUserViaApi(server);
      const { status, body } = await server.request('PUT', '/api/user-settings/password', {
        token,
        body: { currentPassword: password, newPassword: 'short' },
      });
      expect(status).toBe(400);
      expect(body).toEqual({
        error: 'New password must be at least 8 characters',
        code: 'VALIDATION_FAILED',
      });
    });

    it('refuses a wrong current password without signing the user out', async () => {
      const { token } = await createUserViaApi(server);
      const { status, body } = await server.request('PUT', '/api/user-settings/password', {
        token,
        body: { currentPassword: 'not my password', newPassword: 'a brand new password' },
      });
      expect(status).toBe(403);
      expect(body).toEqual({ error: 'Current password is incorrect', code: 'WRONG_PASSWORD' });
      expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(200);
    });

    it('changes the password and revokes every other session', async () => {
      const { token, email, password } = await createUserViaApi(server);
      const other = await login(email, password);
      const { status, body } = await server.request('PUT', '/api/user-settings/password', {
        token,
        body: { currentPassword: password, newPassword: 'a brand new password' },
      });
      expect(status).toBe(200);
      expect(body).toEqual({ success: true });
      expect((await server.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(401);
      expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(200);
      expect((await login(email, password)).status).toBe(401);
      expect((await login(email, 'a brand new password')).status).toBe(200);
    });
  });

  describe('DELETE /api/user-settings/account', () => {
    it('answers 401 without a token', async () => {
      expect(
        (await server.request('DELETE', '/api/user-settings/account', { body: { password: 'x' } })).status,
      ).toBe(401);
    });

    it('refuses an empty password', async () => {
      const { token } = await createUserViaApi(server);
      const { status, body } = await server.request('DELETE', '/api/user-settings/account', {
        token,
        body: { password: '' },
      });
      expect(status).toBe(400);
      expect(body.error).toBe('Password is required');
    });

    it('refuses a wrong password and keeps the account', async () => {
      const { token, email, password } = await createUserViaApi(server);
      const { status, body } = await server.request('DELETE', '/api/user-settings/account', {
        token,
        body: { password: 'wrong password' },
      });
      expect(status).toBe(403);
      expect(body.code).toBe('WRONG_PASSWORD');
      expect((await login(email, password)).status).toBe(200);
    });

    it('deletes the account: sessions revoked, sign-in refused, personal fields erased, row kept', async () => {
      const { token, email, password } = await createUserViaApi(server, { company: 'Secret Co' });
      const [{ id } = { id: '' }] = await queryRows<{ id: string }>(
        server,
        `select id from users where email = '${email}'`,
      );
      const other = await login(email, password);
      // A browser sign-in remembers the browser as the account's device.
      await server.request('POST', '/api/auth/login', { body: { email, password, session: 'cookie' } });
      const devices = `select count(*)::int as n from trusted_devices where user_id = '${id}'`;
      expect((await queryRows<{ n: number }>(server, devices))[0]?.n).toBe(1);
      const { status, body } = await server.request('DELETE', '/api/user-settings/account', {
        token,
        body: { password },
      });
      expect(status).toBe(200);
      expect(body).toEqual({ success: true });
      expect((await server.request('GET', '/api/auth/me', { token })).status).toBe(401);
      expect((await server.request('GET', '/api/auth/me', { token: other.body.token })).status).toBe(401);
      expect((await login(email, password)).status).toBe(401);

      const [erased] = await queryRows(
        server,
        `select email, first_name, last_name, company, password_hash, deleted_at from users where id = '${id}'`,
      );
      expect(erased).toMatchObject({
        email: `deleted-${id}@deleted.invalid`,
        first_name: 'Deleted',
        last_name: 'User',
        company: null,
        password_hash: '!',
      });
      expect(erased?.deleted_at).not.toBeNull();
      expect((await queryRows<{ n: number }>(server, devices))[0]?.n).toBe(0);
    });

    it('frees the email for a new account', async () => {
      const { token, email, password } = await createUserViaApi(server);
      await server.request('DELETE', '/api/user-settings/account', { token, body: { password } });
      const again = await server.request('POST', '/api/auth/signup', {
        body: { firstName: 'New', lastName: 'Owner', email, password: 'another password' },
      });
      expect(again.status).toBe(201);
    });
  });
});
