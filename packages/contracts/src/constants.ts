/** Business constants of SPEC section 9, shared by the web app and the server. */

import type { PoolType } from './pools.ts';

export const PRODUCT_NAME = 'Bytegate';

/** Price of one GB per pool, in integer cents. */
export const PRICE_PER_GB_CENTS: Record<PoolType, number> = {
  datacenter: 99,
  residential: 199,
  mobile: 399,
};

export const BYTES_PER_GB = 1024 ** 3;
export const MIN_PURCHASE_GB = 5;
export const MIN_TOPUP_CENTS = 500;
export const TOPUP_QUICK_AMOUNTS = [5, 10, 25, 50, 100] as const;

/** Client-side inactivity timeout (SPEC section 4). */
export const INACTIVITY_TIMEOUT_MS = 30 * 60 * 1000;
export const MOBILE_BREAKPOINT_PX = 768;
export const SIDEBAR_COOKIE_NAME = 'sidebar_state';
export const SIDEBAR_COOKIE_MAX_AGE_S = 7 * 24 * 60 * 60;
export const SCROLL_TO_TOP_THRESHOLD_PX = 300;
export const ORDERS_PAGE_SIZE = 10;
export const PLANS_CACHE_MS = 60_000;

/** Password length rules; the upper bound keeps hashing cost bounded. */
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 256;

/** Field size bounds: every text field the API accepts is bounded. */
export const NAME_MAX_LENGTH = 100;
export const EMAIL_MAX_LENGTH = 254;
export const COMPANY_MAX_LENGTH = 200;
export const SUBJECT_MAX_LENGTH = 200;
export const MESSAGE_MAX_LENGTH = 5000;
export const RECAPTCHA_TOKEN_MAX_LENGTH = 4096;

/** Concurrent connections a new plan allows, per pool; raised through support. */
export const DEFAULT_THREAD_LIMIT: Record<PoolType, number> = {
  datacenter: 500,
  residential: 200,
  mobile: 100,
};

/** The largest single purchase, to keep totals far from any integer limit. */
export const MAX_PURCHASE_GB = 100_000;
export const PLAN_LABEL_MAX_LENGTH = 100;

/** The largest single top-up, in cents; larger payments go through support. */
export const MAX_TOPUP_CENTS = 10_000_00;
/** Top-up status polling (SPEC section 9). */
export const PAYMENT_POLL_INTERVAL_MS = 4000;
export const PAYMENT_POLL_TIMEOUT_MS = 5 * 60 * 1000;
