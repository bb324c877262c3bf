/**
 * The one catalogue of API error codes. Every error the API returns is
 * `{ error: <message a person can read>, code: <one of these> }` with the status given here; a
 * refused proxy setting adds `field` (the setting it is about).
 */
export const errorCatalogue = {
  /** The body, query or params failed validation; `error` names the first problem. */
  VALIDATION_FAILED: 400,
  /** The body is not JSON, not the content type the route takes, or nested deeper than 32 levels. */
  INVALID_BODY: 400,
  /** The balance does not cover a purchase; the body adds `required` and `current` (dollars). */
  INSUFFICIENT_BALANCE: 400,
  /** The bot check is on and the request carried no token. */
  RECAPTCHA_REQUIRED: 400,
  /** No bearer token, or it is unknown, expired or revoked. */
  UNAUTHENTICATED: 401,
  /** Wrong email or password at sign-in (one answer for both). */
  INVALID_CREDENTIALS: 401,
  /** A password confirmation (password change, account deletion) did not match. */
  WRONG_PASSWORD: 403,
  /** The bot check token is invalid, expired, for another action or site, or scored too low. */
  RECAPTCHA_FAILED: 403,
  /**
   * A state-changing request on a cookie session came without its CSRF token (`X-CSRF-Token`), with
   * another session's, or from another site.
   */
  CSRF_FAILED: 403,
  /** The signed-in user may not do this (a customer on a staff route, support beyond its limits). */
  FORBIDDEN: 403,
  /** The API key does not carry the scope this route needs; `required` names it. */
  INSUFFICIENT_SCOPE: 403,
  /** Staff disabled this account: it cannot sign in, and its proxies stop working. */
  ACCOUNT_DISABLED: 403,
  /** The account's email is not verified yet: top-ups and purchases wait for the mailed link. */
  EMAIL_NOT_VERIFIED: 403,
  /**
   * The account has two-factor authentication on and this needs its code (`code`: from the
   * authenticator app, or a recovery code), which did not come.
   */
  TWO_FACTOR_REQUIRED: 403,
  /** The two-factor code (or recovery code) is wrong, already used, or the sign-in it was for expired. */
  INVALID_TWO_FACTOR_CODE: 403,
  /** A mailed link (password reset, email verification) is unknown, already used or expired. */
  INVALID_LINK: 400,
  /** No such route or resource (another user's resource is also a 404). */
  NOT_FOUND: 404,
  /** An account with this email already exists. */
  EMAIL_TAKEN: 409,
  /** The address is already on the allowlist of one of the customer's own plans (one address, one plan). */
  ALLOWLIST_ADDRESS_TAKEN: 409,
  /** The account holds the most API keys it may: revoke one to create another. */
  API_KEYS_FULL: 409,
  /** The plan's allowlist holds the most addresses it may. */
  ALLOWLIST_FULL: 409,
  /**
   * What is asked does not fit the thing's state now: an order already refunded or past its refund
   * window, a top-up no longer held for review. `error` says which.
   */
  CONFLICT: 409,
  /** The plan already has a thread request waiting for support: one pending request a plan. */
  THREAD_REQUEST_PENDING: 409,
  /** The thread request was already approved, declined or cancelled: it cannot be decided or cancelled again. */
  THREAD_REQUEST_CLOSED: 409,
  /** The body exceeds the size the server accepts (a 400, like any other bad body). */
  BODY_TOO_LARGE: 400,
  /** Too many requests from this address (or for this email). */
  RATE_LIMITED: 429,
  /**
   * Many failed sign-ins from many addresses paused this account's sign-ins from browsers it does not
   * know; its owner may ask for a one-time sign-in link by mail (`POST /api/auth/sign-in-link`).
   */
  ACCOUNT_LOCKED: 429,
  /** An unexpected failure; details are in the server log, never in the answer. */
  INTERNAL_ERROR: 500,
  /** A dependency (the bot check service) could not be reached. */
  UPSTREAM_UNAVAILABLE: 503,
  /**
   * This payment provider is not set up on this server (no credentials, and no sandbox may stand in for
   * it beside a real provider); pay with the other one.
   */
  PAYMENT_PROVIDER_UNAVAILABLE: 503,
  /** The database cannot be reached right now (an outage); `Retry-After` says when to try again. */
  DATABASE_UNAVAILABLE: 503,
  /** The server has more password checks queued than it takes at once; `Retry-After` says when to retry. */
  SERVER_BUSY: 503,
} as const;

export type ErrorCode = keyof typeof errorCatalogue;

export interface ApiErrorBody {
  error: string;
  code: ErrorCode;
}
