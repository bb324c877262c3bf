/**
 * The gateway's refusals: each has an HTTP status (its reason phrase is the code), an RFC 9209
 * Proxy-Status error type, and the SOCKS5 answer (RFC 1929 at the auth stage, RFC 1928 REP after it).
 */
export const gatewayErrors = {
  /** No credentials, or a login/password or source address that matches no active plan. */
  NO_USER: { status: 407, proxyStatus: 'proxy_auth_required', socks: { stage: 'auth' } },
  /** The plan has no traffic left. */
  TRAFFIC_EXHAUSTED: { status: 407, proxyStatus: 'proxy_auth_required', socks: { stage: 'auth' } },
  /** The plan's concurrent-connection limit is reached. */
  THREADS_EXHAUSTED: { status: 407, proxyStatus: 'proxy_auth_required', socks: { stage: 'auth' } },
  /** A username parameter that is not in the grammar. */
  UNKNOWN_PARAM: { status: 400, proxyStatus: 'proxy_internal_response', socks: { stage: 'auth' } },
  /** A username parameter given twice. */
  DUPLICATE_PARAM: { status: 400, proxyStatus: 'proxy_internal_response', socks: { stage: 'auth' } },
  /**
   * A username parameter value of the wrong shape (country code, ASN, session TTL, ...), or a malformed
   * percent-escape in the username or password.
   */
  INVALID_VALUE: { status: 400, proxyStatus: 'proxy_internal_response', socks: { stage: 'auth' } },
  /**
   * Parameters that cannot go together: countries with excluded countries (`cr` with `nocr`), and a
   * `sessid` on a sticky port (the port is the session).
   */
  PARAM_CONFLICT: { status: 400, proxyStatus: 'proxy_internal_response', socks: { stage: 'auth' } },
  /** State, city, ZIP or ASN targeting without a country. */
  PARAM_REQUIRES_COUNTRY: { status: 400, proxyStatus: 'proxy_internal_response', socks: { stage: 'auth' } },
  /** No exit matches the targeting. */
  NO_RAY: { status: 400, proxyStatus: 'destination_not_found', socks: { stage: 'request', rep: 0x01 } },
  /** The target port is not in the open list and not unblocked for this user. */
  PORT_BLOCKED: {
    status: 403,
    proxyStatus: 'destination_ip_prohibited',
    socks: { stage: 'request', rep: 0x02 },
  },
  /** The target host is in a blocked category and not unblocked for this user. */
  HOST_BLOCKED: {
    status: 403,
    proxyStatus: 'destination_ip_prohibited',
    socks: { stage: 'request', rep: 0x02 },
  },
  /** The target is a private, loopback, link-local or metadata address. */
  PRIVATE_TARGET: {
    status: 403,
    proxyStatus: 'destination_ip_prohibited',
    socks: { stage: 'request', rep: 0x02 },
  },
  /** The target could not be resolved or reached through the exit. */
  NO_HOST_CONNECTION: {
    status: 502,
    proxyStatus: 'destination_unavailable',
    socks: { stage: 'request', rep: 0x04 },
  },
  /** The request is not a proxy request the gateway understands. */
  BAD_REQUEST: { status: 400, proxyStatus: 'http_request_error', socks: { stage: 'request', rep: 0x07 } },
  /** The request head is over 16 KiB (however it arrived). */
  HEAD_TOO_LARGE: { status: 431, proxyStatus: 'http_request_error', socks: { stage: 'request', rep: 0x01 } },
  /**
   * Too many connections from this client address have not finished authenticating; `Retry-After`
   * says when to try again.
   */
  TOO_MANY_CONNECTIONS: {
    status: 429,
    proxyStatus: 'connection_limit_reached',
    socks: { stage: 'auth' },
  },
  /**
   * Too many wrong proxy passwords from this client address (for this login, or for any): refused
   * until the window ends, `Retry-After` says when; a right password for another login still goes
   * through (auth-throttle.ts).
   */
  AUTH_THROTTLED: { status: 429, proxyStatus: 'proxy_auth_required', socks: { stage: 'auth' } },
  /** The gateway is shedding load: new connections get this at once; `Retry-After` says when to retry. */
  OVERLOADED: { status: 503, proxyStatus: 'connection_limit_reached', socks: { stage: 'auth' } },
} as const;

export type GatewayErrorCode = keyof typeof gatewayErrors;

/**
 * Whose credentials a refusal came after: the plan and, when it came in as one, its proxy user's meter
 * key. Such a refusal counts in that plan's usage by error code like any refusal of an admitted request.
 */
export interface RefusedAccount {
  planId: string;
  userKey?: string | undefined;
}

export class GatewayError extends Error {
  readonly code: GatewayErrorCode;
  /** Set when the refusal came after a successful credential (or allowlist) check. */
  readonly account: RefusedAccount | undefined;
  /** When trying again can work (AUTH_THROTTLED): the HTTP refusal's `Retry-After`. */
  retryAfterSeconds: number | undefined;
  constructor(code: GatewayErrorCode, message: string, account?: RefusedAccount) {
    super(message);
    this.name = 'GatewayError';
    this.code = code;
    this.account = account;
  }
}

/** `error` as a refusal of `account`'s (a GatewayError already counted for one is left as it is). */
export function refusedFor(error: unknown, account: RefusedAccount): unknown {
  return error instanceof GatewayError && !error.account
    ? new GatewayError(error.code, error.message, account)
    : error;
}
