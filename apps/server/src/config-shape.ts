import type { Role } from './config.ts';
import type { GeoipDatabasePaths } from './geoip/geoip-databases.ts';
import type { UnsafeSetting } from './unsafe-settings.ts';

// The settings as the rest of the server reads them, once config.ts has validated them.

/** When the built-in payment sandboxes may stand in for a provider (docs/money.md, "Payments in production"). */
export type PaymentsSandboxSetting = 'auto' | 'on' | 'off';

/**
 * EMAIL_VERIFICATION as it applies: `required` (a new account is mailed a link, and may top up or buy
 * only once it is followed) or `off`. `auto`, the default, is `required` with SMTP_URL and `off`
 * without, where no mail leaves the machine and a fresh clone must work end to end.
 */
export type EmailVerificationMode = 'required' | 'off';

export interface RateLimitRule {
  max: number;
  windowMs: number;
}

export interface Config {
  port: number;
  host: string;
  publicUrl: string;
  dataDir: string;
  databaseUrl: string | undefined;
  redisUrl: string | undefined;
  /** Put before every Redis key, so that several installs (or test suites) can share one Redis. */
  redisPrefix: string;
  roles: Set<Role>;
  logLevel: string;
  /** Reverse proxies whose X-Forwarded-For is believed: none, a hop count, or addresses and networks. */
  trustProxy: false | number | string[];
  gateway: {
    host: string;
    ip: string | undefined;
    httpPort: number;
    socksPort: number;
    stickyPorts: { first: number; last: number };
    allowPrivateTargets: boolean;
    /** Ports opened for everyone on top of the default list (development and tests). */
    extraOpenPorts: number[];
    /** Gateway processes on this host sharing the listening ports (node:cluster); above 1 needs Redis. */
    workers: number;
    /** How a pool's sources are ordered: by weight and health (cost breaks ties), or cheapest first. */
    supplyPreference: 'weight' | 'cost';
    /**
     * The exit agents' hub (GATEWAY_AGENT_PORT; off when unset): its port, and the operator's certificate
     * and key (GATEWAY_AGENT_TLS_CERT/_KEY; unset: a self-signed one kept in DATA_DIR, pinned by agents).
     */
    agentHub: { port: number; certPath: string | undefined; keyPath: string | undefined } | null;
  };
  recaptcha: { siteKey: string; secretKey: string; verifyUrl: string; minScore: number } | null;
  /**
   * Sign-in with Google (OpenID Connect, see services/accounts/google/): the OAuth client registered
   * with Google, and the issuer whose discovery document names the endpoints; null: off (no button).
   */
  google: { clientId: string; clientSecret: string; issuerUrl: string } | null;
  /** Per client address unless the name says otherwise. */
  rateLimits: {
    /** Sign-in requests, failed or not (a flood guard). */
    login: RateLimitRule;
    /** Failed sign-ins: see services/accounts/login-throttle.ts for how these four work together. */
    loginFailuresPerAccountAndAddress: RateLimitRule;
    loginFailuresPerAddress: RateLimitRule;
    /** Across all addresses, for browsers that never signed in to the account. */
    loginFailuresPerAccount: RateLimitRule;
    /** For a browser that signed in to the account before (its device cookie). */
    loginFailuresPerDevice: RateLimitRule;
    signup: RateLimitRule;
    contact: RateLimitRule;
    /** Password checks of a signed-in user (password change, account deletion), per user. */
    passwordChecksPerUser: RateLimitRule;
    passwordChecksPerAddress: RateLimitRule;
    /** Wrong two-factor codes per account, at sign-in and in settings alike (see TwoFactorCheck). */
    twoFactorFailuresPerUser: RateLimitRule;
    /** Payment provider webhooks (Cryptomus, Bitcart), per route. */
    paymentWebhooks: RateLimitRule;
    /** Thread requests a customer sends, per user (each lands in support's queue). */
    threadRequests: RateLimitRule;
    /** Requests to the public API (`/api/v1`), per API key. */
    apiKeyRequests: RateLimitRule;
    /** Password reset mails asked for one email address, from anywhere. */
    passwordResetsPerEmail: RateLimitRule;
    passwordResetsPerAddress: RateLimitRule;
    /** Verification and email-change links mailed for one account. */
    verificationEmailsPerUser: RateLimitRule;
    /** Mailed links followed (a new password set, an address proven). */
    accountLinksPerAddress: RateLimitRule;
  };
  sessionTtlMs: number;
  /** Provider A's credentials; null means a sandbox or nothing, as `paymentsSandbox` decides. */
  cryptomus: { merchantId: string; apiKey: string; apiUrl: string } | null;
  /** Provider B's server and credentials; null means a sandbox or nothing, as `paymentsSandbox` decides. */
  bitcart: { apiUrl: string; adminUrl: string; token: string; storeId: string } | null;
  /** auto: sandboxes only when no provider is configured; on: for every unconfigured one; off: never. */
  paymentsSandbox: PaymentsSandboxSetting;
  mail: {
    /** The SMTP server mail is sent through; null writes every message to `DATA_DIR/outbox` instead. */
    smtpUrl: string | null;
    /** The From of every message: `Bytegate <no-reply@{host of PUBLIC_URL}>` unless MAIL_FROM says. */
    from: string;
  };
  emailVerification: EmailVerificationMode;
  supply: {
    /**
     * SUPPLY_RECONCILE_TOLERANCE_PCT in hundredths of a percent (2% is 200): a day whose vendor figure
     * differs from our count by more is flagged in the reconciliation.
     */
    reconcileToleranceBasisPoints: number;
  };
  /**
   * GEOIP_CITY_DB and GEOIP_ASN_DB, absolute (null: the packaged databases); `bytegate start` hands them
   * to useGeoipDatabases (docs/geoip.md).
   */
  geoip: GeoipDatabasePaths;
  /** Where the exit probe job requests through every exit, and how often; null: no probing. */
  exitProbe: { url: string; intervalSeconds: number } | null;
  /**
   * Customers' webhooks: whether they may point at private, loopback or link-local addresses (tests and
   * local development only; off, every delivery's resolved address is checked, so no webhook reaches
   * inside our network).
   */
  webhooks: { allowPrivateTargets: boolean };
  /** How long SIGTERM lets open tunnels and requests finish before cutting them (docs/processes.md "Shutdown"). */
  shutdownGraceMs: number;
  /**
   * Prometheus /metrics: on a port of its own when `port` is set (at `host`), and on the HTTP app only
   * when `token` is set, which scrapes then send as a bearer token (on the metrics port too).
   */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  /**
   * Dangerous combinations of settings run anyway because I_KNOW_THIS_IS_UNSAFE names them (any other
   * stops start-up): warned about at every start.
   */
  unsafeSettings: UnsafeSetting[];
}
