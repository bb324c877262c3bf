import { z } from 'zod';
import { formatUsd } from './money.ts';
import type { SignInMethod } from './notifications.ts';
import { POOL_NAMES, type PoolType } from './pools.ts';
import { text } from './text.ts';

// The account's activity feed (issue 19): what happened on a customer's account, as the customer reads
// it. Each kind is written by the server where the thing happens (docs/api.md, "Account activity"), with the
// `details` below (money in integer cents, traffic in bytes, no staff member's name or internal note),
// and worded here, once, for the dashboard and the API alike.

/** Every kind of entry, grouped as the feed's reader thinks of them. */
export const ACTIVITY_KINDS = [
  // Signing in and out
  'account_created',
  'signed_in',
  'signed_out',
  // Money
  'purchase_completed',
  'auto_buy_failed',
  'topup_created',
  'topup_credited',
  'topup_failed',
  'topup_held',
  // Proxies
  'proxy_settings_saved',
  'allowlist_added',
  'allowlist_removed',
  'proxy_password_regenerated',
  'proxy_user_created',
  'proxy_user_updated',
  'proxy_user_deleted',
  'thread_request_created',
  'thread_request_cancelled',
  // Account and security
  'api_key_created',
  'api_key_revoked',
  'password_changed',
  'password_set',
  'password_reset',
  'email_change_requested',
  'email_change_cancelled',
  'email_changed',
  'email_verified',
  'two_factor_enabled',
  'two_factor_disabled',
  'recovery_codes_regenerated',
  'google_linked',
  'google_unlinked',
  'profile_updated',
  // What our support team did on the account (from the console or the `bytegate` command)
  'support_balance_adjusted',
  'support_thread_limit_changed',
  'support_account_disabled',
  'support_account_enabled',
  'support_sessions_revoked',
  'support_unblocks_changed',
  'support_refund',
  'support_proxy_password_regenerated',
  'support_thread_request_approved',
  'support_thread_request_declined',
  'support_two_factor_reset',
] as const;
export type ActivityKind = (typeof ACTIVITY_KINDS)[number];

/** What the feed draws beside an entry; the web app picks the picture. */
export const ACTIVITY_ICONS = [
  'sign-in',
  'sign-out',
  'account',
  'purchase',
  'warning',
  'topup',
  'topup-failed',
  'settings',
  'allowlist',
  'password',
  'proxy-user',
  'threads',
  'key',
  'email',
  'shield',
  'google',
  'profile',
  'support',
] as const;
export type ActivityIcon = (typeof ACTIVITY_ICONS)[number];

/** Entries a page of the feed holds; the Dashboard shows the first ACTIVITY_RECENT_COUNT. */
export const ACTIVITY_PAGE_SIZE = 20;
export const ACTIVITY_RECENT_COUNT = 5;
/** How long entries are kept: older ones are dropped by the jobs every hour. */
export const ACTIVITY_RETENTION_MONTHS = 13;

/** Where a purchase or a top-up was made. */
export type ActivityChannel = 'dashboard' | 'api' | 'auto_buy';

type NoDetails = Record<string, never>;

/** Each kind's `details`, as stored. Money is integer cents; no staff member's email or internal reason. */
export interface ActivityDetails {
  account_created: { method: SignInMethod };
  signed_in: { method: SignInMethod; isTwoFactor: boolean };
  signed_out: NoDetails;
  purchase_completed: {
    orderId: string;
    poolType: PoolType;
    quantityGb: number;
    amountCents: number;
    via: ActivityChannel;
    /** The API key's name, for a purchase through the public API. */
    apiKeyName?: string;
  };
  auto_buy_failed: {
    poolType: PoolType;
    quantityGb: number;
    reason: 'insufficient_balance' | 'monthly_limit';
    amountCents: number;
    balanceCents: number;
  };
  topup_created: {
    orderId: string;
    amountCents: number;
    provider: string;
    isSandbox: boolean;
    via: ActivityChannel;
    apiKeyName?: string;
  };
  topup_credited: {
    orderId: string;
    amountCents: number;
    creditedCents: number;
    provider: string;
    /** Credited by our support team after the top-up was held for review. */
    isReviewed: boolean;
  };
  topup_failed: {
    orderId: string;
    amountCents: number;
    provider: string;
    /** `unopened`: the provider could not open the invoice; `rejected`: declined after review. */
    outcome: 'failed' | 'expired' | 'unopened' | 'rejected';
  };
  topup_held: { orderId: string; amountCents: number; provider: string };
  proxy_settings_saved: { poolType: PoolType };
  allowlist_added: { poolType: PoolType; address: string };
  allowlist_removed: { poolType: PoolType; address: string };
  proxy_password_regenerated: { poolType: PoolType };
  proxy_user_created: { poolType: PoolType; login: string };
  proxy_user_updated: { poolType: PoolType; login: string; change: 'settings' | 'password' | 'traffic' };
  proxy_user_deleted: { poolType: PoolType; login: string };
  thread_request_created: { poolType: PoolType; requestedThreads: number };
  thread_request_cancelled: { poolType: PoolType; requestedThreads: number };
  api_key_created: { name: string; scopes: string[] };
  api_key_revoked: { name: string };
  password_changed: NoDetails;
  password_set: NoDetails;
  /** What the reset revoked (entries from before these were counted have none). */
  password_reset: { revokedSessions?: number; revokedApiKeys?: number };
  email_change_requested: { newEmail: string };
  email_change_cancelled: NoDetails;
  email_changed: { email: string; previousEmail: string; revokedSessions?: number; revokedApiKeys?: number };
  email_verified: { email: string };
  two_factor_enabled: NoDetails;
  two_factor_disabled: NoDetails;
  recovery_codes_regenerated: NoDetails;
  google_linked: { googleEmail: string };
  google_unlinked: NoDetails;
  profile_updated: { fields: Array<'name' | 'company'> };
  support_balance_adjusted: { amountCents: number; balanceCents: number };
  support_thread_limit_changed: { poolType: PoolType; threadLimit: number; previousThreadLimit: number };
  support_account_disabled: NoDetails;
  support_account_enabled: NoDetails;
  support_sessions_revoked: NoDetails;
  support_unblocks_changed: { ports: number[]; hosts: string[]; isRemoved: boolean };
  support_refund: {
    orderId: string;
    orderKind: 'purchase' | 'topup';
    amountCents: number;
    refundedBytes: number | null;
  };
  support_proxy_password_regenerated: { poolType: PoolType };
  /** `message`: support's note to the customer, which the customer also reads with the request. */
  support_thread_request_approved: { poolType: PoolType; grantedThreads: number; message: string | null };
  support_thread_request_declined: { poolType: PoolType; requestedThreads: number; message: string };
  support_two_factor_reset: NoDetails;
}

// ---- Wording ----

/** Details read back from storage: any field may be missing or of another type (an older entry). */
type Stored<K extends ActivityKind> = { [F in keyof ActivityDetails[K]]?: unknown };

interface KindWording<K extends ActivityKind> {
  icon: ActivityIcon;
  title: string | ((details: Stored<K>) => string);
  detail?: (details: Stored<K>) => string | null;
}

const str = (value: unknown): string => (typeof value === 'string' ? value : '');
const num = (value: unknown): number | null =>
  typeof value === 'number' && Number.isFinite(value) ? value : null;
const usd = (cents: unknown): string => {
  const value = num(cents);
  return value === null ? '' : formatUsd(value);
};
const pool = (poolType: unknown): string =>
  typeof poolType === 'string' && poolType in POOL_NAMES ? POOL_NAMES[poolType as PoolType] : 'proxy';
const planOf = (poolType: unknown) => `your ${pool(poolType)} plan`;
/** Parts joined with a middle dot, empty ones dropped; null when none is left. */
const line = (...parts: Array<string | null | false | undefined>): string | null =>
  parts.filter((part): part is string => Boolean(part)).join(' · ') || null;
const quoted = (value: unknown) => (str(value) ? `“${str(value)}”` : '');
const providerName = (provider: unknown) =>
  ({ cryptomus: 'Cryptomus', bitcart: 'Bitcart' })[str(provider)] ?? (str(provider) || null);
const viaApi = (apiKeyName: unknown) =>
  str(apiKeyName) ? `Through the API, key ${quoted(apiKeyName)}` : 'Through the API';
const gb = (bytes: unknown) => {
  const value = num(bytes);
  return value === null ? '' : `${(value / 1024 ** 3).toFixed(2)} GB`;
};
/** "2 API keys revoked", or nothing when none (or an older entry that did not count them). */
const apiKeysRevoked = (count: unknown) => {
  const value = num(count) ?? 0;
  return value > 0 && `${value} API ${value === 1 ? 'key' : 'keys'} revoked`;
};
const signInMethod = (method: unknown) =>
  method === 'google'
    ? 'Google'
    : method === 'email_link'
      ? 'a sign-in link emailed to you'
      : 'your password';

const WORDING: { [K in ActivityKind]: KindWording<K> } = {
  account_created: {
    icon: 'account',
    title: 'Account created',
    detail: (d) =>
      d.method === 'google' ? 'Signed up with Google' : 'Signed up with your email and password',
  },
  signed_in: {
    icon: 'sign-in',
    title: 'Signed in',
    detail: (d) => `With ${signInMethod(d.method)}${d.isTwoFactor === true ? ' and a two-factor code' : ''}`,
  },
  signed_out: { icon: 'sign-out', title: 'Signed out' },
  purchase_completed: {
    icon: 'purchase',
    title: (d) =>
      `${d.via === 'auto_buy' ? 'Auto-buy bought' : 'Bought'} ${num(d.quantityGb) ?? ''} GB of ${pool(d.poolType)} traffic`,
    detail: (d) =>
      line(
        str(d.orderId),
        usd(d.amountCents) && `${usd(d.amountCents)} from your balance`,
        d.via === 'api' && viaApi(d.apiKeyName),
      ),
  },
  auto_buy_failed: {
    icon: 'warning',
    title: 'Auto-buy could not buy traffic',
    detail: (d) =>
      d.reason === 'monthly_limit'
        ? `The monthly limit of auto-buys for ${planOf(d.poolType)} is reached`
        : `${num(d.quantityGb) ?? ''} GB of ${pool(d.poolType)} traffic costs ${usd(d.amountCents)}; your balance was ${usd(d.balanceCents)}`,
  },
  topup_created: {
    icon: 'topup',
    title: (d) => `Top-up of ${usd(d.amountCents)} started`,
    detail: (d) =>
      line(
        str(d.orderId),
        providerName(d.provider) && `${providerName(d.provider)}${d.isSandbox === true ? ' (sandbox)' : ''}`,
        d.via === 'api' && viaApi(d.apiKeyName),
      ),
  },
  topup_credited: {
    icon: 'topup',
    title: (d) => `Top-up credited: ${usd(d.creditedCents)}`,
    detail: (d) =>
      line(
        str(d.orderId),
        num(d.creditedCents) !== null &&
          num(d.amountCents) !== null &&
          num(d.creditedCents) !== num(d.amountCents) &&
          `${usd(d.creditedCents)} of the ${usd(d.amountCents)} invoice arrived`,
        d.isReviewed === true ? 'Approved by our support team after review' : providerName(d.provider),
      ),
  },
  topup_failed: {
    icon: 'topup-failed',
    title: (d) =>
      ({
        expired: `Top-up of ${usd(d.amountCents)} expired`,
        rejected: `Top-up of ${usd(d.amountCents)} declined`,
        unopened: `Top-up of ${usd(d.amountCents)} could not start`,
      })[str(d.outcome)] ?? `Top-up of ${usd(d.amountCents)} failed`,
    detail: (d) =>
      line(
        str(d.orderId),
        d.outcome === 'rejected'
          ? 'Our support team could not confirm the payment'
          : d.outcome === 'unopened'
            ? `${providerName(d.provider) ?? 'The provider'} could not open the invoice`
            : providerName(d.provider),
        'Nothing was credited',
      ),
  },
  topup_held: {
    icon: 'topup',
    title: (d) => `Top-up of ${usd(d.amountCents)} held for review`,
    detail: (d) =>
      line(
        str(d.orderId),
        'The payment arrived short: our support team will check what arrived and credit it',
      ),
  },
  proxy_settings_saved: {
    icon: 'settings',
    title: 'Proxy settings saved',
    detail: (d) => `Targeting of ${planOf(d.poolType)}`,
  },
  allowlist_added: {
    icon: 'allowlist',
    title: 'IP address allowlisted',
    detail: (d) => line(str(d.address), `On ${planOf(d.poolType)}`),
  },
  allowlist_removed: {
    icon: 'allowlist',
    title: 'IP address removed from the allowlist',
    detail: (d) => line(str(d.address), `Of ${planOf(d.poolType)}`),
  },
  proxy_password_regenerated: {
    icon: 'password',
    title: 'Proxy password changed',
    detail: (d) => `${pool(d.poolType)} plan: the old password stopped working`,
  },
  proxy_user_created: {
    icon: 'proxy-user',
    title: 'Proxy user created',
    detail: (d) => line(str(d.login), `On ${planOf(d.poolType)}`),
  },
  proxy_user_updated: {
    icon: 'proxy-user',
    title: (d) =>
      ({ password: 'Proxy user’s password changed', traffic: 'Traffic moved for a proxy user' })[
        str(d.change)
      ] ?? 'Proxy user changed',
    detail: (d) => line(str(d.login), `On ${planOf(d.poolType)}`),
  },
  proxy_user_deleted: {
    icon: 'proxy-user',
    title: 'Proxy user deleted',
    detail: (d) => line(str(d.login), `Of ${planOf(d.poolType)}`),
  },
  thread_request_created: {
    icon: 'threads',
    title: 'More threads requested',
    detail: (d) => `${num(d.requestedThreads) ?? ''} threads for ${planOf(d.poolType)}`,
  },
  thread_request_cancelled: {
    icon: 'threads',
    title: 'Thread request withdrawn',
    detail: (d) => `${num(d.requestedThreads) ?? ''} threads for ${planOf(d.poolType)}`,
  },
  api_key_created: {
    icon: 'key',
    title: 'API key created',
    detail: (d) =>
      line(
        quoted(d.name),
        Array.isArray(d.scopes) && d.scopes.length > 0 && `Scopes: ${d.scopes.map(str).join(', ')}`,
      ),
  },
  api_key_revoked: { icon: 'key', title: 'API key revoked', detail: (d) => quoted(d.name) || null },
  password_changed: {
    icon: 'password',
    title: 'Password changed',
    detail: () => 'Your other sessions were signed out',
  },
  password_set: {
    icon: 'password',
    title: 'Password set',
    detail: () => 'You can sign in with your email and password too',
  },
  password_reset: {
    icon: 'password',
    title: 'Password reset',
    detail: (d) =>
      line('With a link mailed to you; every session was signed out', apiKeysRevoked(d.revokedApiKeys)),
  },
  email_change_requested: {
    icon: 'email',
    title: 'Change of email requested',
    detail: (d) => `A confirmation link went to ${str(d.newEmail)}`,
  },
  email_change_cancelled: { icon: 'email', title: 'Change of email withdrawn' },
  email_changed: {
    icon: 'email',
    title: 'Email address changed',
    detail: (d) =>
      line(
        `Now ${str(d.email)}`,
        str(d.previousEmail) && `was ${str(d.previousEmail)}`,
        num(d.revokedSessions) !== null && 'Your other sessions were signed out',
        apiKeysRevoked(d.revokedApiKeys),
      ),
  },
  email_verified: { icon: 'email', title: 'Email address verified', detail: (d) => str(d.email) || null },
  two_factor_enabled: {
    icon: 'shield',
    title: 'Two-factor authentication turned on',
    detail: () => 'Ten recovery codes were made',
  },
  two_factor_disabled: { icon: 'shield', title: 'Two-factor authentication turned off' },
  recovery_codes_regenerated: {
    icon: 'shield',
    title: 'Recovery codes renewed',
    detail: () => 'The old ones stopped working',
  },
  google_linked: {
    icon: 'google',
    title: 'Google account connected',
    detail: (d) => str(d.googleEmail) || null,
  },
  google_unlinked: { icon: 'google', title: 'Google account disconnected' },
  profile_updated: {
    icon: 'profile',
    title: 'Profile updated',
    detail: (d) => {
      const fields: unknown[] = Array.isArray(d.fields) ? d.fields : [];
      const names = [fields.includes('name') ? 'Name' : '', fields.includes('company') ? 'Company' : ''];
      const saved = names.filter(Boolean);
      return saved.length > 0 ? `${saved.join(' and ')} saved` : null;
    },
  },
  support_balance_adjusted: {
    icon: 'support',
    title: (d) =>
      (num(d.amountCents) ?? 0) < 0
        ? `Our support team took ${usd(-(num(d.amountCents) ?? 0))} off your balance`
        : `Our support team added ${usd(d.amountCents)} to your balance`,
    detail: (d) => (usd(d.balanceCents) ? `Your balance became ${usd(d.balanceCents)}` : null),
  },
  support_thread_limit_changed: {
    icon: 'support',
    title: 'Our support team changed your thread limit',
    detail: (d) =>
      `${pool(d.poolType)} plan: ${num(d.previousThreadLimit) ?? '?'} → ${num(d.threadLimit) ?? '?'} threads`,
  },
  support_account_disabled: {
    icon: 'support',
    title: 'Our support team disabled your account',
    detail: () => 'Every session was signed out and your proxies stopped',
  },
  support_account_enabled: {
    icon: 'support',
    title: 'Our support team enabled your account again',
    detail: () => 'You can sign in and your proxies work again',
  },
  support_sessions_revoked: { icon: 'support', title: 'Our support team signed you out everywhere' },
  support_unblocks_changed: {
    icon: 'support',
    title: (d) =>
      d.isRemoved === true
        ? 'Our support team closed access they had opened'
        : 'Our support team opened access for your proxies',
    detail: (d) => {
      const ports = Array.isArray(d.ports) ? d.ports.filter((port) => typeof port === 'number') : [];
      const hosts = Array.isArray(d.hosts) ? d.hosts.map(str).filter(Boolean) : [];
      return line(
        ports.length > 0 && `${ports.length === 1 ? 'Port' : 'Ports'} ${ports.join(', ')}`,
        hosts.length > 0 && `${hosts.length === 1 ? 'Domain' : 'Domains'} ${hosts.join(', ')}`,
      );
    },
  },
  support_refund: {
    icon: 'support',
    title: (d) =>
      d.orderKind === 'topup'
        ? `Our support team refunded your top-up ${str(d.orderId)}`
        : `Our support team refunded your order ${str(d.orderId)}`,
    detail: (d) =>
      d.orderKind === 'topup'
        ? `${usd(d.amountCents)} went back to you outside Bytegate and came off your balance`
        : line(
            `${usd(d.amountCents)} back to your balance`,
            (num(d.refundedBytes) ?? 0) > 0 && `${gb(d.refundedBytes)} of unused traffic taken off the plan`,
          ),
  },
  support_proxy_password_regenerated: {
    icon: 'support',
    title: 'Our support team gave your proxy a new password',
    detail: (d) => `${pool(d.poolType)} plan: read it in Proxy Setup`,
  },
  support_thread_request_approved: {
    icon: 'support',
    title: 'Our support team approved your thread request',
    detail: (d) =>
      line(
        `${pool(d.poolType)} plan: ${num(d.grantedThreads) ?? ''} threads`,
        str(d.message) && quoted(d.message),
      ),
  },
  support_thread_request_declined: {
    icon: 'support',
    title: 'Our support team declined your thread request',
    detail: (d) =>
      line(
        `${num(d.requestedThreads) ?? ''} threads for ${planOf(d.poolType)}`,
        str(d.message) && quoted(d.message),
      ),
  },
  support_two_factor_reset: {
    icon: 'support',
    title: 'Our support team turned off your two-factor authentication',
    detail: () => 'Every session was signed out; turn it on again in User Settings',
  },
};

export function isActivityKind(kind: string): kind is ActivityKind {
  return (ACTIVITY_KINDS as readonly string[]).includes(kind);
}

/** How the feed words an entry: its title, a line of detail (or none) and its icon. */
export function describeActivity(entry: { kind: string; details: Record<string, unknown> }): {
  title: string;
  detail: string | null;
  icon: ActivityIcon;
} {
  if (!isActivityKind(entry.kind)) {
    // A kind this code does not know (written by a newer server): said plainly rather than hidden.
    return { title: 'Account activity', detail: null, icon: 'account' };
  }
  const wording = WORDING[entry.kind] as KindWording<ActivityKind>;
  const details = entry.details as Stored<ActivityKind>;
  return {
    title: typeof wording.title === 'string' ? wording.title : wording.title(details),
    detail: wording.detail?.(details) ?? null,
    icon: wording.icon,
  };
}

// ---- Browsers ----

const PROGRAMS: Array<[RegExp, string]> = [
  [/^curl\//i, 'curl'],
  [/^Wget\//i, 'Wget'],
  [/python-requests|python-urllib|aiohttp|httpx/i, 'a Python program'],
  [/^node$|^undici|node-fetch|axios\//i, 'a Node.js program'],
  [/Go-http-client/i, 'a Go program'],
  [/PostmanRuntime/i, 'Postman'],
  [/okhttp/i, 'an OkHttp app'],
];

/**
 * A user agent as people name it: 'Chrome on macOS', 'Safari on iOS', 'curl'; null when it says nothing
 * recognisable (or nothing at all). Order matters: Edge, Opera and Samsung's browser also say Chrome,
 * and Chrome also says Safari.
 */
export function describeUserAgent(userAgent: string | null | undefined): string | null {
  if (!userAgent) {
    return null;
  }
  const ua = userAgent.slice(0, 512);
  for (const [pattern, name] of PROGRAMS) {
    if (pattern.test(ua)) {
      return name;
    }
  }
  const browser = /Edg(?:e|A|iOS)?\//.test(ua)
    ? 'Edge'
    : /OPR\/|Opera/.test(ua)
      ? 'Opera'
      : /SamsungBrowser\//.test(ua)
        ? 'Samsung Internet'
        : /Firefox\/|FxiOS\//.test(ua)
          ? 'Firefox'
          : /CriOS\/|Chrome\/|Chromium\//.test(ua)
            ? 'Chrome'
            : /Version\/[\d.]+.*Safari\//.test(ua)
              ? 'Safari'
              : null;
  const system = /iPhone|iPad|iPod/.test(ua)
    ? 'iOS'
    : /Android/.test(ua)
      ? 'Android'
      : /Windows/.test(ua)
        ? 'Windows'
        : /CrOS/.test(ua)
          ? 'ChromeOS'
          : /Macintosh|Mac OS X/.test(ua)
            ? 'macOS'
            : /Linux|X11/.test(ua)
              ? 'Linux'
              : null;
  if (browser) {
    return system ? `${browser} on ${system}` : browser;
  }
  return system ? `A browser on ${system}` : null;
}

// ---- The API ----

export const activityEntrySchema = z.object({
  id: z.string(),
  kind: z.string(),
  title: z.string(),
  /** A line of detail under the title, or null. */
  detail: z.string().nullable(),
  icon: z.enum(ACTIVITY_ICONS),
  /** ISO 8601, UTC. */
  createdAt: z.string(),
  /** The address of the request that did it, where a person did (sign-ins, security changes). */
  ipAddress: z.string().nullable(),
  /** Its browser as people name it ('Chrome on macOS'), or null. */
  browser: z.string().nullable(),
});
export type ActivityEntry = z.infer<typeof activityEntrySchema>;

export const activityPageSchema = z.object({
  entries: z.array(activityEntrySchema),
  /** Pass as `cursor` for the next (older) page; null: this is the last one. */
  nextCursor: z.string().nullable(),
});
export type ActivityPage = z.infer<typeof activityPageSchema>;

export const activityQuerySchema = z.object({ cursor: text('Cursor').max(200).optional() });

export const activityMessages = {
  badCursor: 'The cursor is not one this list gave.',
  loadFailed: 'Failed to load your activity.',
} as const;
