import { Secret, TOTP } from 'otpauth';
import { queryRows, type TestServer } from './test-server.ts';

// Two-factor authentication in tests: codes computed with otpauth (as an authenticator app does) from
// the secret the API gave, for now or for other time steps.

/** The app code of `secret` at `now`, `steps` time steps away (-1: the previous 30 s). */
export function codeAt(secret: string, steps = 0, now = Date.now()): string {
  return new TOTP({ secret: Secret.fromBase32(secret), algorithm: 'SHA1', digits: 6, period: 30 }).generate({
    timestamp: now + steps * 30_000,
  });
}

/**
 * Waits, when a 30 s time step is about to end, for the next one to begin: a code computed now for a
 * step relative to now then reaches the server within the same step.
 */
export async function awaitFreshStep(marginMs = 4000): Promise<void> {
  const left = 30_000 - (Date.now() % 30_000);
  if (left < marginMs) {
    await new Promise((resolve) => setTimeout(resolve, left + 100));
  }
}

/**
 * Turns two-factor on for a user through the API (setup with the password, confirmed with the code of
 * the previous step, so that the current and next steps remain unused); answers the secret and the
 * recovery codes.
 */
export async function enableTwoFactorViaApi(
  server: TestServer,
  user: { token: string; password: string },
): Promise<{ secret: string; recoveryCodes: string[] }> {
  const setup = await server.request<{ secret: string }>('POST', '/api/user-settings/two-factor/setup', {
    token: user.token,
    body: { password: user.password },
  });
  if (setup.status !== 200) {
    throw new Error(`two-factor setup failed with ${setup.status}: ${JSON.stringify(setup.body)}`);
  }
  await awaitFreshStep();
  const confirmed = await server.request<{ recoveryCodes: string[] }>(
    'POST',
    '/api/user-settings/two-factor/confirm',
    { token: user.token, body: { code: codeAt(setup.body.secret, -1) } },
  );
  if (confirmed.status !== 200) {
    throw new Error(`two-factor confirm failed with ${confirmed.status}: ${JSON.stringify(confirmed.body)}`);
  }
  return { secret: setup.body.secret, recoveryCodes: confirmed.body.recoveryCodes };
}

/** The `two_factor_changed` notifications of a user, oldest first, as their `change`. */
export async function twoFactorNotifications(server: TestServer, email: string): Promise<string[]> {
  const rows = await queryRows<{ change: string }>(
    server,
    `select n.payload->>'change' as change from notifications n join users u on u.id = n.user_id
     where u.email = '${email}' and n.kind = 'two_factor_changed' order by n.created_at, n.id`,
  );
  return rows.map((row) => row.change);
}
