import type { Executor } from '@bytegate/db';
import {
  createTrustedDevice,
  getTrustedDeviceUserId,
  keepNewestTrustedDevices,
  touchTrustedDevice,
} from '@bytegate/db/queries';
import { createSessionToken, hashSessionToken } from './session-tokens.ts';

/** How long a device cookie lives, renewed at each sign-in. */
export const TRUSTED_DEVICE_TTL_MS = 365 * 24 * 60 * 60 * 1000;
/** Devices remembered per account; signing in from more forgets the least recently seen. */
const MAX_DEVICES_PER_ACCOUNT = 20;

const TOKEN = /^[A-Za-z0-9_-]{43}$/;

/** The device cookie's hash when it belongs to this very account (a browser it signed in from). */
export async function trustedDeviceOf(
  db: Executor,
  params: { deviceToken: string | undefined; userId: string | undefined },
): Promise<string | null> {
  if (!params.deviceToken || !params.userId || !TOKEN.test(params.deviceToken)) {
    return null;
  }
  const tokenHash = hashSessionToken(params.deviceToken);
  const owner = await getTrustedDeviceUserId(db, { tokenHash });
  return owner === params.userId ? tokenHash : null;
}

/**
 * After a successful sign-in: the browser's device cookie for this account, kept (and marked seen)
 * when it already is one, else a new one. Answers the token to set as the cookie.
 */
export async function rememberDevice(
  db: Executor,
  params: { deviceToken: string | undefined; trustedHash: string | null; userId: string },
): Promise<string> {
  if (params.deviceToken && params.trustedHash) {
    await touchTrustedDevice(db, { userId: params.userId, tokenHash: params.trustedHash, now: new Date() });
    return params.deviceToken;
  }
  const { token, tokenHash } = createSessionToken();
  await createTrustedDevice(db, { userId: params.userId, tokenHash });
  await keepNewestTrustedDevices(db, { userId: params.userId, keep: MAX_DEVICES_PER_ACCOUNT });
  return token;
}
