import type {
  BalanceResponse,
  ChangePasswordRequest,
  DeleteAccountRequest,
  ProfileResponse,
  UpdateProfileRequest,
} from '@bytegate/contracts/account';
import type {
  ForgotPasswordRequest,
  ForgotPasswordResponse,
  ResendVerificationResponse,
  ResetPasswordRequest,
  ResetPasswordResponse,
  SignInLinkRequest,
  SignInWithLinkRequest,
  VerifyEmailRequest,
  VerifyEmailResponse,
} from '@bytegate/contracts/account-links';
import type { AddAllowlistRequest, AllowlistEntry, AllowlistResponse } from '@bytegate/contracts/allowlist';
import type {
  CookieAuthResponse,
  LoginRequest,
  LoginTwoFactorRequest,
  MeResponse,
  OkResponse,
  PublicConfig,
  SignupRequest,
} from '@bytegate/contracts/auth';
import type { Plan, PurchasePlanRequest, PurchasePlanResponse } from '@bytegate/contracts/billing';
import type { ContactRequest } from '@bytegate/contracts/contact';
import type { DashboardTrafficResponse, dashboardStatsResponseSchema } from '@bytegate/contracts/dashboard';
import type { ApiErrorBody } from '@bytegate/contracts/errors';
import type { OrdersResponse } from '@bytegate/contracts/orders';
import type { PlanListResponse } from '@bytegate/contracts/plans';
import type { PoolType } from '@bytegate/contracts/pools';
import type {
  GeoOption,
  geoOptionsRequestSchema,
  ProxySettingsResponse,
  saveProxySettingsRequestSchema,
} from '@bytegate/contracts/proxy-settings';
import type {
  BitcartInvoiceResponse,
  CreateTopupRequest,
  CryptomusInvoiceResponse,
  TopupStatusResponse,
} from '@bytegate/contracts/topup';
import type { TwoFactorChallenge } from '@bytegate/contracts/two-factor';
import type { z } from 'zod';
import { sessionStore } from '../session/session-store.ts';

// The one way the web app talks to the API: `api.<resource>.<call>(...)`, each call's body and answer
// typed from the contracts the server validates against. Contracts are imported as types only, so this
// client costs the public pages no zod. The untyped `request` below is private to this module.

/** A non-2xx answer of the API, carrying the server's readable message and machine code. */
export class ApiError extends Error {
  readonly status: number;
  readonly code: string;
  readonly body: Record<string, unknown>;

  constructor(status: number, body: Record<string, unknown>) {
    super(typeof body.error === 'string' ? body.error : `Request failed (${status})`);
    this.name = 'ApiError';
    this.status = status;
    this.code = typeof body.code === 'string' ? body.code : 'UNKNOWN';
    this.body = body;
  }
}

/** The server's message for a failed call, or the screen's fallback wording. */
export function errorMessage(error: unknown, fallback: string): string {
  return error instanceof ApiError && error.message && !error.message.startsWith('Request failed')
    ? error.message
    : fallback;
}

// Request bodies and answers that contracts declares as schemas without an exported type.
export type SaveProxySettingsRequest = z.input<typeof saveProxySettingsRequestSchema>;
export type GeoOptionsRequest = z.input<typeof geoOptionsRequestSchema>;
export type DashboardStatsResponse = z.infer<typeof dashboardStatsResponseSchema>;
export type GeoList = 'countries' | 'states' | 'asns' | 'zipcodes';

interface RequestOptions {
  body?: unknown;
  /** A signed-in call: it carries the CSRF token when it changes state, and a 401 ends the session (default true). */
  auth?: boolean;
}

const SAFE_METHODS = new Set(['GET', 'HEAD', 'OPTIONS']);

async function send(method: string, path: string, options: RequestOptions, csrfToken: string | null) {
  const headers: Record<string, string> = { accept: 'application/json' };
  if (options.body !== undefined) {
    headers['content-type'] = 'application/json';
  }
  if (csrfToken) {
    headers['x-csrf-token'] = csrfToken;
  }
  // The session cookie goes with every same-origin call; it is httpOnly, so this code never sees it.
  const response = await fetch(`/api${path}`, {
    method,
    headers,
    credentials: 'same-origin',
    body: options.body === undefined ? null : JSON.stringify(options.body),
  });
  const text = await response.text();
  let data: unknown = {};
  if (text) {
    try {
      data = JSON.parse(text);
    } catch {
      data = {};
    }
  }
  return { response, data: (data ?? {}) as Record<string, unknown> };
}

let csrfLookup: Promise<string | null> | null = null;

/**
 * The session's CSRF token: kept in memory from sign-in, or (after a reload, or another tab's sign-in)
 * asked of `GET /auth/me`, which also refreshes the stored user. One lookup serves concurrent callers.
 */
function csrfToken(): Promise<string | null> {
  const known = sessionStore.getCsrfToken();
  if (known) {
    return Promise.resolve(known);
  }
  csrfLookup ??= send('GET', '/auth/me', {}, null)
    .then(({ response, data }) => {
      if (!response.ok || typeof data.csrfToken !== 'string') {
        return null;
      }
      sessionStore.setCsrfToken(data.csrfToken);
      return data.csrfToken;
    })
    .finally(() => {
      csrfLookup = null;
    });
  return csrfLookup;
}

/** JSON under /api, errors as ApiError. Typed only by its callers in `api` below. */
async function request<T>(method: string, path: string, options: RequestOptions = {}): Promise<T> {
  const { auth = true } = options;
  const needsCsrf = auth && !SAFE_METHODS.has(method);
  let { response, data } = await send(method, path, options, needsCsrf ? await csrfToken() : null);
  if (needsCsrf && response.status === 403 && data.code === 'CSRF_FAILED') {
    // The cookie changed under this tab (a sign-in elsewhere): fetch the token again, once.
    sessionStore.setCsrfToken(null);
    ({ response, data } = await send(method, path, options, await csrfToken()));
  }
  if (!response.ok) {
    if (response.status === 401 && auth) {
      sessionStore.signOut();
    }
    throw new ApiError(response.status, data as ApiErrorBody & Record<string, unknown>);
  }
  return data as T;
}

/** The typed request a section of the client in a module of its own is built on (see `defineApiSection`). */
export type SectionRequest = <T>(method: string, path: string, options?: { body?: unknown }) => Promise<T>;

/**
 * A section of the client kept in a module of its own, so that only the pages that call it load it: the
 * staff console's calls (admin-client.ts) stay out of the bundle every public page loads, where `api`
 * itself is. Its calls are typed there from the contracts, as the ones below are here.
 */
export function defineApiSection<T>(build: (request: SectionRequest) => T): T {
  return build(request);
}

const query = (params: Record<string, string | number>) =>
  Object.entries(params)
    .map(([key, value]) => `${key}=${encodeURIComponent(value)}`)
    .join('&');

/** Every API call the web app makes, by resource. */
export const api = {
  // The browser signs in with a cookie session: the token stays in an httpOnly cookie, out of reach of
  // scripts, and the answer carries the CSRF token instead.
  auth: {
    /** The session, or (two-factor on) a challenge that `loginTwoFactor` finishes with a code. */
    login: (body: LoginRequest) =>
      request<CookieAuthResponse | TwoFactorChallenge>('POST', '/auth/login', {
        body: { ...body, session: 'cookie' },
        auth: false,
      }),
    loginTwoFactor: (body: LoginTwoFactorRequest) =>
      request<CookieAuthResponse>('POST', '/auth/login/two-factor', {
        body: { ...body, session: 'cookie' },
        auth: false,
      }),
    signup: (body: SignupRequest) =>
      request<CookieAuthResponse>('POST', '/auth/signup', {
        body: { ...body, session: 'cookie' },
        auth: false,
      }),
    logout: () => request<OkResponse>('POST', '/auth/logout'),
    me: () => request<MeResponse>('GET', '/auth/me'),
  },
  // Mailed links: whoever opens one may not be signed in (or signed in as someone else), so these
  // three go without the session; asking for a new verification link is the signed-in user's.
  accountLinks: {
    forgotPassword: (body: ForgotPasswordRequest) =>
      request<ForgotPasswordResponse>('POST', '/auth/forgot-password', { body, auth: false }),
    resetPassword: (body: ResetPasswordRequest) =>
      request<ResetPasswordResponse>('POST', '/auth/reset-password', { body, auth: false }),
    verifyEmail: (body: VerifyEmailRequest) =>
      request<VerifyEmailResponse>('POST', '/auth/verify-email', { body, auth: false }),
    resendVerification: () => request<ResendVerificationResponse>('POST', '/auth/verify-email/resend'),
    /** A locked account's way in: the link is mailed to its owner (the same answer for any email). */
    requestSignInLink: (body: SignInLinkRequest) =>
      request<ForgotPasswordResponse>('POST', '/auth/sign-in-link', { body, auth: false }),
    /** The session (a cookie), or with two-factor on a challenge that `auth.loginTwoFactor` finishes. */
    signInWithLink: (body: SignInWithLinkRequest) =>
      request<CookieAuthResponse | TwoFactorChallenge>('POST', '/auth/sign-in-link/sign-in', {
        body: { ...body, session: 'cookie' },
        auth: false,
      }),
  },
  config: {
    get: () => request<PublicConfig>('GET', '/config', { auth: false }),
  },
  contact: {
    send: (body: ContactRequest) => request<OkResponse>('POST', '/contact', { body, auth: false }),
  },
  account: {
    getBalance: () => request<BalanceResponse>('GET', '/account/balance'),
  },
  userSettings: {
    changePassword: (body: ChangePasswordRequest) =>
      request<OkResponse>('PUT', '/user-settings/password', { body }),
    deleteAccount: (body: DeleteAccountRequest) =>
      request<OkResponse>('DELETE', '/user-settings/account', { body }),
    getProfile: () => request<ProfileResponse>('GET', '/user-settings/profile'),
    updateProfile: (body: UpdateProfileRequest) =>
      request<ProfileResponse>('PUT', '/user-settings/profile', { body }),
    cancelEmailChange: () => request<ProfileResponse>('DELETE', '/user-settings/email-change'),
  },
  dashboard: {
    getStats: () => request<DashboardStatsResponse>('GET', '/dashboard/stats'),
    getTraffic: () => request<DashboardTrafficResponse>('GET', '/dashboard/traffic'),
  },
  plans: {
    list: () => request<PlanListResponse>('GET', '/subuser/plans'),
    get: (planId: string) => request<Plan>('GET', `/subusers/get?${query({ subuser_id: planId })}`),
    getForPool: (poolType: PoolType) =>
      request<Plan>('GET', `/subuser/plan?${query({ pool_type: poolType })}`),
    purchase: (body: PurchasePlanRequest) =>
      request<PurchasePlanResponse>('POST', '/subuser/create', { body }),
    regeneratePassword: (planId: string) =>
      request<Plan>('POST', '/subuser/regenerate-password', { body: { subuser_id: planId } }),
  },
  allowlist: {
    list: (planId: string) =>
      request<AllowlistResponse>('GET', `/subuser/allowlist?${query({ subuser_id: planId })}`),
    add: (body: AddAllowlistRequest) => request<AllowlistEntry>('POST', '/subuser/allowlist', { body }),
    remove: (planId: string, address: string) =>
      request<OkResponse>('DELETE', `/subuser/allowlist?${query({ subuser_id: planId, address })}`),
  },
  proxySettings: {
    get: (poolType: PoolType) =>
      request<ProxySettingsResponse>('GET', `/proxy-settings?pool_type=${poolType}`),
    save: (body: SaveProxySettingsRequest) =>
      request<ProxySettingsResponse>('PUT', '/proxy-settings', { body }),
    listGeoOptions: (list: GeoList, body: GeoOptionsRequest) =>
      request<GeoOption[]>('POST', `/proxy-settings/${list}`, { body }),
  },
  orders: {
    list: (page: number, limit: number) =>
      request<OrdersResponse>('GET', `/orders?${query({ page, limit })}`),
  },
  topup: {
    cryptomus: {
      createInvoice: (body: CreateTopupRequest) =>
        request<CryptomusInvoiceResponse>('POST', '/topup/cryptomus/create-invoice', { body }),
      getStatus: (orderId: string) =>
        request<TopupStatusResponse>('GET', `/topup/cryptomus/status/${encodeURIComponent(orderId)}`),
    },
    bitcart: {
      createInvoice: (body: CreateTopupRequest) =>
        request<BitcartInvoiceResponse>('POST', '/topup/bitcart/create-invoice', { body }),
      getStatus: (orderId: string) =>
        request<TopupStatusResponse>('GET', `/topup/bitcart/status?${query({ order_id: orderId })}&remote=1`),
    },
  },
};
