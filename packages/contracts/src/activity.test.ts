import { describe, expect, it } from 'vitest';
import { ACTIVITY_KINDS, type ActivityDetails, describeActivity, describeUserAgent } from './activity.ts';

/** One plausible entry of every kind, as the server writes them. */
const SAMPLES: { [K in (typeof ACTIVITY_KINDS)[number]]: ActivityDetails[K] } = {
  account_created: { method: 'password' },
  signed_in: { method: 'password', isTwoFactor: true },
  signed_out: {},
  purchase_completed: {
    orderId: 'BG-100042',
    poolType: 'datacenter',
    quantityGb: 5,
    amountCents: 495,
    via: 'api',
    apiKeyName: 'ci',
  },
  auto_buy_failed: {
    poolType: 'residential',
    quantityGb: 10,
    reason: 'insufficient_balance',
    amountCents: 1990,
    balanceCents: 100,
  },
  topup_created: {
    orderId: 'BG-100043',
    amountCents: 1000,
    provider: 'cryptomus',
    isSandbox: true,
    via: 'dashboard',
  },
  topup_credited: {
    orderId: 'BG-100043',
    amountCents: 1000,
    creditedCents: 700,
    provider: 'cryptomus',
    isReviewed: false,
  },
  topup_failed: { orderId: 'BG-100044', amountCents: 2500, provider: 'bitcart', outcome: 'expired' },
  topup_held: { orderId: 'BG-100045', amountCents: 2500, provider: 'bitcart' },
  proxy_settings_saved: { poolType: 'residential' },
  allowlist_added: { poolType: 'datacenter', address: '203.0.113.7' },
  allowlist_removed: { poolType: 'datacenter', address: '203.0.113.7' },
  proxy_password_regenerated: { poolType: 'mobile' },
  proxy_user_created: { poolType: 'residential', login: 'pu12345678' },
  proxy_user_updated: { poolType: 'residential', login: 'pu12345678', change: 'traffic' },
  proxy_user_deleted: { poolType: 'residential', login: 'pu12345678' },
  thread_request_created: { poolType: 'datacenter', requestedThreads: 500 },
  thread_request_cancelled: { poolType: 'datacenter', requestedThreads: 500 },
  api_key_created: { name: 'ci', scopes: ['read', 'purchase'] },
  api_key_revoked: { name: 'ci' },
  password_changed: {},
  password_set: {},
  password_reset: {},
  email_change_requested: { newEmail: 'new@example.com' },
  email_change_cancelled: {},
  email_changed: { email: 'new@example.com', previousEmail: 'old@example.com' },
  email_verified: { email: 'ada@example.com' },
  two_factor_enabled: {},
  two_factor_disabled: {},
  recovery_codes_regenerated: {},
  google_linked: { googleEmail: 'ada@gmail.com' },
  google_unlinked: {},
  profile_updated: { fields: ['name', 'company'] },
  support_balance_adjusted: { amountCents: -300, balanceCents: 700 },
  support_thread_limit_changed: { poolType: 'datacenter', threadLimit: 200, previousThreadLimit: 100 },
  support_account_disabled: {},
  support_account_enabled: {},
  support_sessions_revoked: {},
  support_unblocks_changed: { ports: [25], hosts: ['paypal.com'], isRemoved: false },
  support_refund: {
    orderId: 'BG-100042',
    orderKind: 'purchase',
    amountCents: 396,
    refundedBytes: 4 * 1024 ** 3,
  },
  support_proxy_password_regenerated: { poolType: 'datacenter' },
  support_thread_request_approved: { poolType: 'datacenter', grantedThreads: 500, message: null },
  support_thread_request_declined: {
    poolType: 'datacenter',
    requestedThreads: 500,
    message: 'Tell us more about the sites you collect from.',
  },
  support_two_factor_reset: {},
};

describe('describeActivity', () => {
  it('words every kind with a title and no holes', () => {
    for (const kind of ACTIVITY_KINDS) {
      const { title, detail } = describeActivity({ kind, details: SAMPLES[kind] });
      expect(title, kind).not.toBe('');
      for (const text of [title, detail ?? '']) {
        expect(text, kind).not.toMatch(/undefined|NaN|null|\[object/);
      }
    }
  });

  it('says what happened, with the amounts and names of the details', () => {
    const words = (kind: (typeof ACTIVITY_KINDS)[number]) =>
      describeActivity({ kind, details: SAMPLES[kind] });
    expect(words('signed_in')).toEqual({
      title: 'Signed in',
      detail: 'With your password and a two-factor code',
      icon: 'sign-in',
    });
    expect(words('purchase_completed')).toEqual({
      title: 'Bought 5 GB of Datacenter traffic',
      detail: 'BG-100042 · $4.95 from your balance · Through the API, key “ci”',
      icon: 'purchase',
    });
    expect(words('topup_credited').title).toBe('Top-up credited: $7.00');
    expect(words('topup_credited').detail).toBe(
      'BG-100043 · $7.00 of the $10.00 invoice arrived · Cryptomus',
    );
    expect(words('topup_failed').title).toBe('Top-up of $25.00 expired');
    expect(words('allowlist_added').detail).toBe('203.0.113.7 · On your Datacenter plan');
    expect(words('support_balance_adjusted').title).toBe('Our support team took $3.00 off your balance');
    expect(words('support_refund').detail).toBe(
      '$3.96 back to your balance · 4.00 GB of unused traffic taken off the plan',
    );
    expect(words('profile_updated').detail).toBe('Name and Company saved');
  });

  it('words every action of our support team as theirs', () => {
    for (const kind of ACTIVITY_KINDS.filter((each) => each.startsWith('support_'))) {
      const { title, icon } = describeActivity({ kind, details: SAMPLES[kind] });
      expect(title, kind).toMatch(/^Our support team /);
      expect(icon).toBe('support');
    }
  });

  it('survives details that are missing or of another shape, and kinds it does not know', () => {
    for (const kind of ACTIVITY_KINDS) {
      for (const details of [{}, { poolType: 7, amountCents: 'x', scopes: 'read', ports: null }]) {
        const { title, detail } = describeActivity({ kind, details });
        expect(`${title} ${detail}`, kind).not.toMatch(/undefined|NaN|\[object/);
      }
    }
    expect(describeActivity({ kind: 'from_the_future', details: {} })).toEqual({
      title: 'Account activity',
      detail: null,
      icon: 'account',
    });
  });
});

describe('describeUserAgent', () => {
  it.each([
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
      'Chrome on macOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.2478.51',
      'Edge on Windows',
    ],
    ['Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0', 'Firefox on Linux'],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1',
      'Safari on iOS',
    ],
    [
      'Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/124.0.6367.88 Mobile/15E148 Safari/604.1',
      'Chrome on iOS',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36',
      'Chrome on Android',
    ],
    [
      'Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36',
      'Samsung Internet on Android',
    ],
    [
      'Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15',
      'Safari on macOS',
    ],
    [
      'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 OPR/109.0.0.0',
      'Opera on Windows',
    ],
    [
      'Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36',
      'Chrome on ChromeOS',
    ],
    [
      'Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/124.0.0.0 Safari/537.36',
      'Chrome on Linux',
    ],
    ['curl/8.5.0', 'curl'],
    ['python-requests/2.31.0', 'a Python program'],
    ['node', 'a Node.js program'],
  ])('%s is %s', (userAgent, expected) => {
    expect(describeUserAgent(userAgent)).toBe(expected);
  });

  it('names nothing it cannot recognise', () => {
    expect(describeUserAgent(null)).toBeNull();
    expect(describeUserAgent('')).toBeNull();
    expect(describeUserAgent('SomethingElse/1.0')).toBeNull();
  });
});
