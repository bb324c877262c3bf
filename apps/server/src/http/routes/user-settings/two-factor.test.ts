import { testDatabaseKinds } from '@bytegate/db/testing';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  createUserViaApi,
  queryRows,
  startTestServer,
  type TestServer,
} from '../../../testing/test-server.ts';
import {
  awaitFreshStep,
  codeAt,
  enableTwoFactorViaApi,
  twoFactorNotifications,
} from '../../../testing/two-factor.ts';

// User Settings → Security: enrolment (password, then a code computed from the secret the API gave, as
// an app does), status, new recovery codes, turning it off, and the actions asked again with a code.

const REQUIRED = {
  error: 'Two-factor authentication is on: enter the code from your authenticator app (or a recovery code).',
  code: 'TWO_FACTOR_REQUIRED',
};
const INVALID = {
  error: 'That code is not right, or it was already used. Try the newest code from your app.',
  code: 'INVALID_TWO_FACTOR_CODE',
};

describe.each(testDatabaseKinds())('two-factor settings API on %s', (kind) => {
  let server: TestServer;
  beforeAll(async () => {
    const plenty = { max: 1000, windowMs: 60_000 };
    server = await startTestServer(kind, {
      rateLimits: { passwordChecksPerUser: plenty, passwordChecksPerAddress: plenty },
    });
  });
  afterAll(async () => {
    await server.close();
  });

  const status = (token: string) => server.request('GET', '/api/user-settings/security', { token });

  describe('GET /api/user-settings/security', () => {
    it('answers 401 without a session', async () => {
      expect((await server.request('GET', '/api/user-settings/security')).status).toBe(401);
    });

    it('says two-factor is off for a new account', async () => {
      const { token } = await createUserViaApi(server);
      expect(await status(token)).toMatchObject({
        status: 200,
        body: {
          twoFactor: { enabled: false, enabledAt: null, recoveryCodesLeft: 0 },
          google: null,
          hasPassword: true,
        },
      });
    });
  });

  describe('enrolment: POST /api/user-settings/two-factor/setup, then /confirm', () => {
    it('answers 401 without a session', async () => {
      const setup = await server.request('POST', '/api/user-settings/two-factor/setup', {
        body: { password: 'x' },
      });
      expect(setup.status).toBe(401);
    });

    it('refuses a missing or wrong password', async () => {
      const { token } = await createUserViaApi(server);
      const missing = await server.request('POST', '/api/user-settings/two-factor/setup', {
        token,
        body: {},
      });
      expect(missing).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
      const wrong = await server.request('POST', '/api/user-settings/two-factor/setup', {
        token,
        body: { password: 'not my password' },
      });
      expect(wrong).toMatchObject({
        status: 403,
        body: { error: 'Password is incorrect', code: 'WRONG_PASSWORD' },
      });
    });

    it('answers the secret three ways, then turns on with a code from it and answers ten recovery codes', async () => {
      const user = await createUserViaApi(server);
      const setup = await server.request<{ secret: string; otpauthUri: string; qrCodeDataUrl: string }>(
        'POST',
        '/api/user-settings/two-factor/setup',
        { token: user.token, body: { password: user.password } },
      );
      expect(setup.status).toBe(200);
      expect(setup.headers.get('cache-control')).toBe('no-store');
      const { secret, otpauthUri, qrCodeDataUrl } = setup.body;
      expect(secret).toMatch(/^[A-Z2-7]{32}$/);
      expect(otpauthUri).toBe(
        `otpauth://totp/Bytegate:${encodeURIComponent(user.email)}?issuer=Bytegate&secret=${secret}&algorithm=SHA1&digits=6&period=30`,
      );
      expect(qrCodeDataUrl).toMatch(/^data:image\/svg\+xml;base64,/);
      expect(Buffer.from(qrCodeDataUrl.split(',')[1] ?? '', 'base64').toString()).toMatch(/^<svg /);
      // Waiting for confirmation changes nothing yet.
      expect((await status(user.token)).body).toEqual({
        twoFactor: { enabled: false, enabledAt: null, recoveryCodesLeft: 0 },
        google: null,
        hasPassword: true,
      });

      await awaitFreshStep();
      const confirmed = await server.request<{ recoveryCodes: string[] }>(
        'POST',
        '/api/user-settings/two-factor/confirm',
        { token: user.token, body: { code: codeAt(secret) } },
      );
      expect(confirmed.status).toBe(200);
      expect(confirmed.headers.get('cache-control')).toBe('no-store');
      const { recoveryCodes } = confirmed.body;
      expect(recoveryCodes).toHaveLength(10);
      expect(new Set(recoveryCodes).size).toBe(10);
      for (const code of recoveryCodes) {
        expect(code).toMatch(/^[a-z2-9]{4}-[a-z2-9]{4}$/);
      }
      expect(confirmed.body).toMatchObject({ twoFactor: { enabled: true, recoveryCodesLeft: 10 } });
      const now = await status(user.token);
      expect(now.body).toMatchObject({ twoFactor: { enabled: true, recoveryCodesLeft: 10 } });
      const enabledAt = Date.parse((now.body as { twoFactor: { enabledAt: string } }).twoFactor.enabledAt);
      expect(Math.abs(enabledAt - Date.now())).toBeLessThan(60_000);

      // Stored: the secret moved from pending to active, the codes only as SHA-256.
      const [stored] = await queryRows<{ totp_secret: string; totp_pending_secret: string | null }>(
        server,
        `select totp_secret, totp_pending_secret from users where email = '${user.email}'`,
      );
      expect(stored).toEqual({ totp_secret: secret, totp_pending_secret: null });
      const hashes = await queryRows<{ code_hash: string }>(
        server,
        `select c.code_hash from two_factor_recovery_codes c join users u on u.id = c.user_id where u.email = '${user.email}'`,
      );
      expect(hashes).toHaveLength(10);
      for (const { code_hash } of hashes) {
        expect(code_hash).toMatch(/^[0-9a-f]{64}$/);
        expect(recoveryCodes.map((code) => code.replace('-', ''))).not.toContain(code_hash);
      }
      expect(await twoFactorNotifications(server, user.email)).toEqual(['enabled']);

      // Once on, a new setup is refused: turning it off comes first.
      const again = await server.request('POST', '/api/user-settings/two-factor/setup', {
        token: user.token,
        body: { password: user.password },
      });
      expect(again).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    });

    it('refuses a wrong confirmation code and stays off; a right one then works', async () => {
      const user = await createUserViaApi(server);
      const setup = await server.request<{ secret: string }>('POST', '/api/user-settings/two-factor/setup', {
        token: user.token,
        body: { password: user.password },
      });
      await awaitFreshStep();
      const right = codeAt(setup.body.secret);
      const wrong = right === '000000' ? '111111' : '000000';
      for (const code of [wrong, codeAt(setup.body.secret, 2), 'abcd-2345', 'not a code']) {
        const refused = await server.request('POST', '/api/user-settings/two-factor/confirm', {
          token: user.token,
          body: { code },
        });
        expect({ code, ...refused }).toMatchObject({ code, status: 403, body: INVALID });
      }
      expect((await status(user.token)).body).toMatchObject({ twoFactor: { enabled: false } });
      expect(await twoFactorNotifications(server, user.email)).toEqual([]);
      const confirmed = await server.request('POST', '/api/user-settings/two-factor/confirm', {
        token: user.token,
        body: { code: right },
      });
      expect(confirmed.status).toBe(200);
    });

    it('refuses a confirmation with no setup waiting', async () => {
      const { token } = await createUserViaApi(server);
      const refused = await server.request('POST', '/api/user-settings/two-factor/confirm', {
        token,
        body: { code: '123456' },
      });
      expect(refused).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    });
  });

  describe('POST /api/user-settings/two-factor/recovery-codes', () => {
    it('needs a right code; then the old codes stop working and ten new ones do', async () => {
      const user = await createUserViaApi(server);
      const { secret, recoveryCodes: old } = await enableTwoFactorViaApi(server, user);
      const missing = await server.request('POST', '/api/user-settings/two-factor/recovery-codes', {
        token: user.token,
        body: {},
      });
      expect(missing).toMatchObject({ status: 400, body: { code: 'VALIDATION_FAILED' } });
      const wrong = await server.request('POST', '/api/user-settings/two-factor/recovery-codes', {
        token: user.token,
        body: { code: 'zzzz-zzzz' },
      });
      expect(wrong).toMatchObject({ status: 403, body: INVALID });
      await awaitFreshStep();
      const made = await server.request<{ recoveryCodes: string[] }>(
        'POST',
        '/api/user-settings/two-factor/recovery-codes',
        { token: user.token, body: { code: codeAt(secret) } },
      );
      expect(made.status).toBe(200);
      expect(made.headers.get('cache-control')).toBe('no-store');
      expect(made.body.recoveryCodes).toHaveLength(10);
      expect(made.body.recoveryCodes.filter((code) => old.includes(code))).toEqual([]);
      // An old code no longer works; a new one does (and counts down).
      const withOld = await server.request('POST', '/api/user-settings/two-factor/recovery-codes', {
        token: user.token,
        body: { code: old[0] },
      });
      expect(withOld).toMatchObject({ status: 403, body: INVALID });
      expect(await twoFactorNotifications(server, user.email)).toEqual([
        'enabled',
        'recovery_codes_regenerated',
      ]);
    });
  });

  describe('POST /api/user-settings/two-factor/disable', () => {
    it('refuses while two-factor is off', async () => {
      const user = await createUserViaApi(server);
      const refused = await server.request('POST', '/api/user-settings/two-factor/disable', {
        token: user.token,
        body: { password: user.password, code: '123456' },
      });
      expect(refused).toMatchObject({ status: 409, body: { code: 'CONFLICT' } });
    });

    it('needs the password and a code: refused without, with a wrong one, then turned off', async () => {
      const user = await createUserViaApi(server);
      const { secret } = await enableTwoFactorViaApi(server, user);
      const disable = (body: Record<string, unknown>) =>
        server.request('POST', '/api/user-settings/two-factor/disable', { token: user.token, body });
      expect(await disable({ password: user.password })).toMatchObject({ status: 403, body: REQUIRED });
      expect(await disable({ password: user.password, code: '000000' })).toMatchObject({
        status: 403,
        body: INVALID,
      });
      await awaitFreshStep();
      // A wrong password does not cost the code: the same code then works with the right one.
      const code = codeAt(secret);
      expect(await disable({ password: 'wrong password', code })).toMatchObject({
        status: 403,
        body: { code: 'WRONG_PASSWORD' },
      });
      const done = await disable({ password: user.password, code });
      expect(done).toMatchObject({
        status: 200,
        body: { enabled: false, enabledAt: null, recoveryCodesLeft: 0 },
      });
      expect((await status(user.token)).body).toMatchObject({ twoFactor: { enabled: false } });
      const [stored] = await queryRows<Record<string, unknown>>(
        server,
        `select totp_secret, totp_enabled_at, totp_last_step,
           (select count(*)::int from two_factor_recovery_codes c where c.user_id = u.id) as codes
         from users u where email = '${user.email}'`,
      );
      expect(stored).toEqual({ totp_secret: null, totp_enabled_at: null, totp_last_step: null, codes: 0 });
      expect(await twoFactorNotifications(server, user.email)).toEqual(['enabled', 'disabled']);
      // Sign-in needs the password alone again.
      const login = await server.request('POST', '/api/auth/login', {
        body: { email: user.email, password: user.password },
      });
      expect(login).toMatchObject({ status: 200, body: { token: expect.any(String) } });
    });
  });

  describe('actions asked again with a code while two-factor is on', () => {
    let user: { token: string; email: string; password: string };
    let secret: string;
    let recoveryCodes: string[];
    beforeAll(async () => {
      user = await createUserViaApi(server);
      ({ secret, recoveryCodes } = await enableTwoFactorViaApi(server, user));
    });

    it('PUT /api/user-settings/password: refused without and with a wrong code, changed with a right one', async () => {
      const change = (code?: string) =>
        server.request('PUT', '/api/user-settings/password', {
          token: user.token,
          body: { currentPassword: user.password, newPassword: 'a brand new password', code },
        });
      expect(await change()).toMatchObject({ status: 403, body: REQUIRED });
      expect(await change('000000')).toMatchObject({ status: 403, body: INVALID });
      await awaitFreshStep();
      expect(await change(codeAt(secret))).toMatchObject({ status: 200, body: { success: true } });
      user.password = 'a brand new password';
    });

    it('POST /api/user-settings/api-keys: refused without and with a wrong code, created with a right one', async () => {
      const create = (code?: string) =>
        server.request('POST', '/api/user-settings/api-keys', {
          token: user.token,
          body: { name: 'deploy', scopes: ['read'], password: user.password, code },
        });
      expect(await create()).toMatchObject({ status: 403, body: REQUIRED });
      expect(await create('zzzz-zzzz')).toMatchObject({ status: 403, body: INVALID });
      // A recovery code stands in for the app.
      const created = await create(recoveryCodes[0]);
      expect(created).toMatchObject({ status: 201, body: { secret: expect.stringMatching(/^bg_live_/) } });
      expect(await create(recoveryCodes[0])).toMatchObject({ status: 403, body: INVALID });
      expect((await status(user.token)).body).toMatchObject({ twoFactor: { recoveryCodesLeft: 9 } });
    });

    it('DELETE /api/user-settings/account: refused without and with a wrong code, deleted with a right one', async () => {
      const remove = (code?: string) =>
        server.request('DELETE', '/api/user-settings/account', {
          token: user.token,
          body: { password: user.password, code },
        });
      expect(await remove()).toMatchObject({ status: 403, body: REQUIRED });
      expect(await remove('000000')).toMatchObject({ status: 403, body: INVALID });
      // A wrong password is told as such, before any code is used.
      const wrongPassword = await server.request('DELETE', '/api/user-settings/account', {
        token: user.token,
        body: { password: 'not it', code: recoveryCodes[1] },
      });
      expect(wrongPassword).toMatchObject({ status: 403, body: { code: 'WRONG_PASSWORD' } });
      expect(await remove(recoveryCodes[1])).toMatchObject({ status: 200, body: { success: true } });
      const [erased] = await queryRows<{ totp_secret: string | null; codes: number }>(
        server,
        `select totp_secret, (select count(*)::int from two_factor_recovery_codes c where c.user_id = u.id) as codes
         from users u where deleted_at is not null and id = (select user_id from api_keys where name = 'deploy' order by created_at desc limit 1)`,
      );
      expect(erased).toEqual({ totp_secret: null, codes: 0 });
    });

    it('accounts without two-factor need no code, and ignore one sent', async () => {
      const plain = await createUserViaApi(server);
      const created = await server.request('POST', '/api/user-settings/api-keys', {
        token: plain.token,
        body: { name: 'plain', scopes: ['read'], password: plain.password, code: '123456' },
      });
      expect(created.status).toBe(201);
    });
  });

  it('holds an account after too many wrong codes (the rule: 10 in 15 minutes; 3 here)', async () => {
    const held = await startTestServer(kind, {
      rateLimits: { twoFactorFailuresPerUser: { max: 3, windowMs: 60_000 } },
    });
    try {
      const user = await createUserViaApi(held);
      const { secret } = await enableTwoFactorViaApi(held, user);
      for (let i = 0; i < 3; i += 1) {
        const wrong = await held.request('POST', '/api/user-settings/two-factor/recovery-codes', {
          token: user.token,
          body: { code: 'zzzz-zzzz' },
        });
        expect(wrong.status).toBe(403);
      }
      const refused = await held.request('POST', '/api/user-settings/two-factor/recovery-codes', {
        token: user.token,
        body: { code: codeAt(secret) },
      });
      expect(refused.status).toBe(429);
      expect(refused.body).toMatchObject({
        code: 'RATE_LIMITED',
        error: expect.stringMatching(/^Too many wrong codes/),
      });
      expect(Number(refused.headers.get('retry-after'))).toBeGreaterThan(0);
    } finally {
      await held.close();
    }
  });
});
