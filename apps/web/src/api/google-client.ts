import type { OkResponse } from '@bytegate/contracts/auth';
import type { GoogleConnectResponse, SetPasswordRequest } from '@bytegate/contracts/google';
import type { SecurityStatusResponse } from '@bytegate/contracts/two-factor';
import { defineApiSection } from './api-client.ts';

// User Settings → how the account signs in: a Google account linked for sign-in, and the first password
// of an account created with Google. A section of its own, loaded only by the dashboard.

export const googleApi = defineApiSection((request) => ({
  /** Starts linking a Google account: where to send the browser (Google's authorization URL). */
  connect: () => request<GoogleConnectResponse>('POST', '/user-settings/google/connect'),
  /** Unlinks it (refused while the account has no password); answers the security status. */
  disconnect: () => request<SecurityStatusResponse>('DELETE', '/user-settings/google'),
  /** Sets the first password of an account created with Google. */
  setPassword: (body: SetPasswordRequest) => request<OkResponse>('POST', '/user-settings/password', { body }),
}));
