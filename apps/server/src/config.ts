import { isIP } from 'node:net';
import { resolve } from 'node:path';
import { PRODUCT_NAME } from '@bytegate/contracts/constants';
import { z } from 'zod';
import {
  flag,
  geoipDatabase,
  issuerUrl,
  mailFrom,
  optionalText,
  optionalUrl,
  port,
  portList,
  portRange,
  probeUrl,
  smtpUrl,
} from './config-fields.ts';
import { trustProxy } from './trust-proxy.ts';
import { checkUnsafeSettings, findUnsafeSettings, UNSAFE_SETTING_NAMES } from './unsafe-settings.ts';

/**
 * The one validated settings module. Every setting is an environment variable, all optional;
 * a bad value stops start-up with a message naming the variable (see docs/settings.md "Settings").
 */

const ROLE_NAMES = ['web', 'api', 'gateway', 'jobs'] as const;
export type Role = (typeof ROLE_NAMES)[number];

const envSchema = z.object({
  PORT: port.default(3000),
  HOST: z.string().min(1).default('0.0.0.0'),
  PUBLIC_URL: optionalUrl,
  DATA_DIR: z.string().min(1).default('./data'),
  DATABASE_URL: optionalText.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// connection string')
      .optional(),
  ),
  REDIS_URL: optionalText.pipe(
    z
      .string()
      .regex(/^rediss?:\/\//, 'must be a redis:// URL')
      .optional(),
  ),
  REDIS_PREFIX: z
    .string()
    .regex(/^[A-Za-z0-9_.:-]{1,64}$/, 'must be 1 to 64 letters, digits or _ . : -')
    .default('bytegate:'),
  ROLES: z
    .string()
    .default('web,api,gateway,jobs')
    .transform((value) =>
      value
        .split(',')
        .map((role) => role.trim())
        .filter(Boolean),
    )
    .pipe(z.array(z.enum(ROLE_NAMES, { error: `must list only ${ROLE_NAMES.join(', ')}` })).min(1)),
  LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
  TRUST_PROXY: trustProxy,
  GATEWAY_HOST: optionalText,
  GATEWAY_IP: optionalText.pipe(z.union([z.ipv4(), z.ipv6()]).optional()),
  GATEWAY_HTTP_PORT: port.default(8823),
  GATEWAY_SOCKS_PORT: port.default(8824),
  GATEWAY_STICKY_PORTS: portRange.default({ first: 10000, last: 10099 }),
  GATEWAY_ALLOW_PRIVATE_TARGETS: flag,
  GATEWAY_AGENT_PORT: port.optional(),
  GATEWAY_AGENT_TLS_CERT: optionalText,
  GATEWAY_AGENT_TLS_KEY: optionalText,
  WEBHOOKS_ALLOW_PRIVATE_TARGETS: flag,
  GATEWAY_OPEN_PORTS: portList,
  GATEWAY_WORKERS: z.coerce
    .number({ error: 'must be a whole number from 1 to 64' })
    .int('must be a whole number from 1 to 64')
    .min(1, 'must be a whole number from 1 to 64')
    .max(64, 'must be a whole number from 1 to 64')
    .default(1),
  SUPPLY_PREFER: z.enum(['weight', 'cost'], { error: 'must be weight or cost' }).default('weight'),
  SUPPLY_RECONCILE_TOLERANCE_PCT: z
    .string()
    .trim()
    .regex(
      /^\d{1,3}(\.\d{1,2})?$/,
      'must be a percentage from 0 to 100, at most two decimals, such as 2 or 0.5',
    )
    .transform((value) => Math.round(Number(value) * 100))
    .refine(
      (hundredths) => hundredths <= 10_000,
      'must be a percentage from 0 to 100, at most two decimals, such as 2 or 0.5',
    )
    .default(200),
  GEOIP_CITY_DB: optionalText.pipe(geoipDatabase('city').optional()),
  GEOIP_ASN_DB: optionalText.pipe(geoipDatabase('asn').optional()),
  RECAPTCHA_SITE_KEY: optionalText,
  RECAPTCHA_SECRET_KEY: optionalText,
  RECAPTCHA_VERIFY_URL: z.url().default('https://www.google.com/recaptcha/api/siteverify'),
  RECAPTCHA_MIN_SCORE: z.coerce.number().min(0).max(1).default(0.5),
  GOOGLE_CLIENT_ID: optionalText,
  GOOGLE_CLIENT_SECRET: optionalText,
  GOOGLE_ISSUER_URL: optionalText.pipe(issuerUrl.optional()),
  CRYPTOMUS_MERCHANT_ID: optionalText,
  CRYPTOMUS_API_KEY: optionalText,
  CRYPTOMUS_API_URL: z.url().default('https://api.cryptomus.com'),
  BITCART_API_URL: optionalUrl,
  BITCART_TOKEN: optionalText,
  BITCART_STORE_ID: optionalText,
  BITCART_ADMIN_URL: optionalUrl,
  PAYMENTS_SANDBOX: z.enum(['auto', 'on', 'off'], { error: 'must be auto, on or off' }).default('auto'),
  SMTP_URL: optionalText.pipe(smtpUrl.optional()),
  MAIL_FROM: optionalText.pipe(mailFrom.optional()),
  EMAIL_VERIFICATION: z
    .enum(['auto', 'required', 'off'], { error: 'must be auto, required or off' })
    .default('auto'),
  EXIT_PROBE_URL: optionalText.pipe(probeUrl.optional()),
  EXIT_PROBE_INTERVAL_SECONDS: z.coerce
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(1, 'must be at least 1')
    .max(86_400, 'must be at most 86400 (a day)')
    .default(60),
  SHUTDOWN_GRACE_S: z.coerce
    .number({ error: 'must be a number of seconds' })
    .int('must be a whole number of seconds')
    .min(0, 'must be 0 (cut at once) or more')
    .max(3600, 'must be at most 3600 (an hour)')
    .default(30),
  METRICS_PORT: port.optional(),
  METRICS_HOST: z.string().min(1).default('127.0.0.1'),
  I_KNOW_THIS_IS_UNSAFE: z
    .string()
    .optional()
    .transform((value) =>
      (value ?? '')
        .split(',')
        .map((name) => name.trim())
        .filter(Boolean),
    )
    .pipe(
      z.array(
        z.enum(UNSAFE_SETTING_NAMES, {
          error: `must list only ${UNSAFE_SETTING_NAMES.join(', ')} (comma-separated)`,
        }),
      ),
    ),
  METRICS_TOKEN: optionalText.pipe(
    z.string().min(16, 'must be at least 16 characters (a random secret Prometheus sends)').optional(),
  ),
});

import type { Config } from './config-shape.ts';

export type { Config, EmailVerificationMode, PaymentsSandboxSetting, RateLimitRule } from './config-shape.ts';

export class ConfigError extends Error {}

export const defaultRateLimits: Config['rateLimits'] = {
  login: { max: 20, windowMs: 60_000 },
  loginFailuresPerAccountAndAddress: { max: 10, windowMs: 15 * 60_000 },
  loginFailuresPerAddress: { max: 50, windowMs: 15 * 60_000 },
  loginFailuresPerAccount: { max: 100, windowMs: 60 * 60_000 },
  loginFailuresPerDevice: { max: 10, windowMs: 15 * 60_000 },
  signup: { max: 20, windowMs: 60 * 60_000 },
  contact: { max: 5, windowMs: 60_000 },
  passwordChecksPerUser: { max: 10, windowMs: 15 * 60_000 },
  passwordChecksPerAddress: { max: 30, windowMs: 15 * 60_000 },
  twoFactorFailuresPerUser: { max: 10, windowMs: 15 * 60_000 },
  // A provider sends one webhook per status change; a flood of them is junk filling payment_events.
  paymentWebhooks: { max: 120, windowMs: 60_000 },
  threadRequests: { max: 20, windowMs: 60 * 60_000 },
  apiKeyRequests: { max: 600, windowMs: 60_000 },
  passwordResetsPerEmail: { max: 5, windowMs: 60 * 60_000 },
  passwordResetsPerAddress: { max: 20, windowMs: 60 * 60_000 },
  verificationEmailsPerUser: { max: 5, windowMs: 60 * 60_000 },
  accountLinksPerAddress: { max: 30, windowMs: 15 * 60_000 },
};

/** Reads and validates the settings; throws ConfigError naming every bad variable. */
export function loadConfig(env: Record<string, string | undefined> = process.env): Config {
  const parsed = envSchema.safeParse(env);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((issue) => `  ${issue.path.join('.')}: ${issue.message}`);
    throw new ConfigError(`Invalid settings:\n${lines.join('\n')}`);
  }
  const e = parsed.data;
  if (Boolean(e.RECAPTCHA_SITE_KEY) !== Boolean(e.RECAPTCHA_SECRET_KEY)) {
    throw new ConfigError(
      'Invalid settings:\n  RECAPTCHA_SITE_KEY and RECAPTCHA_SECRET_KEY must be set together (or both left unset)',
    );
  }
  assertAllOrNone('Cryptomus', {
    CRYPTOMUS_MERCHANT_ID: e.CRYPTOMUS_MERCHANT_ID,
    CRYPTOMUS_API_KEY: e.CRYPTOMUS_API_KEY,
  });
  assertAllOrNone('Bitcart', {
    BITCART_API_URL: e.BITCART_API_URL,
    BITCART_TOKEN: e.BITCART_TOKEN,
    BITCART_STORE_ID: e.BITCART_STORE_ID,
    // Optional (derived from the API URL), but set alone it says someone meant to configure Bitcart.
    ...(e.BITCART_ADMIN_URL ? { BITCART_ADMIN_URL: e.BITCART_ADMIN_URL } : {}),
  });
  assertAllOrNone("The agent hub's own certificate", {
    GATEWAY_AGENT_TLS_CERT: e.GATEWAY_AGENT_TLS_CERT,
    GATEWAY_AGENT_TLS_KEY: e.GATEWAY_AGENT_TLS_KEY,
  });
  if (e.GATEWAY_AGENT_TLS_CERT && e.GATEWAY_AGENT_PORT === undefined) {
    throw new ConfigError(
      'Invalid settings:\n  GATEWAY_AGENT_TLS_CERT: set, but GATEWAY_AGENT_PORT is not (the agent hub is off without a port)',
    );
  }
  assertAllOrNone('Sign-in with Google', {
    GOOGLE_CLIENT_ID: e.GOOGLE_CLIENT_ID,
    GOOGLE_CLIENT_SECRET: e.GOOGLE_CLIENT_SECRET,
  });
  const publicUrl = (e.PUBLIC_URL ?? `http://localhost:${e.PORT}`).replace(/\/+$/, '');
  const roles = new Set(e.ROLES);
  if (!e.DATABASE_URL && roles.size < ROLE_NAMES.length) {
    throw new ConfigError(
      'Invalid settings:\n  ROLES: running only some parts needs DATABASE_URL (the embedded database serves one process)',
    );
  }
  if (e.GATEWAY_WORKERS > 1 && roles.has('gateway') && !(e.DATABASE_URL && e.REDIS_URL)) {
    throw new ConfigError(
      'Invalid settings:\n  GATEWAY_WORKERS: more than one gateway worker needs DATABASE_URL and REDIS_URL (they share thread limits, traffic and sticky sessions there)',
    );
  }
  const unsafeSettings = checkUnsafeSettings(
    findUnsafeSettings({
      publicUrl,
      metricsPort: e.METRICS_PORT,
      metricsHost: e.METRICS_HOST,
      hasMetricsToken: e.METRICS_TOKEN !== undefined,
      paymentsSandbox: e.PAYMENTS_SANDBOX,
      liveProviders: [
        ...(e.CRYPTOMUS_MERCHANT_ID ? ['Cryptomus'] : []),
        ...(e.BITCART_API_URL ? ['Bitcart'] : []),
      ],
      gatewayAllowsPrivateTargets: e.GATEWAY_ALLOW_PRIVATE_TARGETS,
      webhooksAllowPrivateTargets: e.WEBHOOKS_ALLOW_PRIVATE_TARGETS,
    }),
    e.I_KNOW_THIS_IS_UNSAFE,
    (lines) => {
      throw new ConfigError(`Invalid settings:\n${lines.join('\n')}`);
    },
  );
  return {
    port: e.PORT,
    host: e.HOST,
    publicUrl,
    dataDir: resolve(e.DATA_DIR),
    databaseUrl: e.DATABASE_URL,
    redisUrl: e.REDIS_URL,
    redisPrefix: e.REDIS_PREFIX,
    roles,
    logLevel: e.LOG_LEVEL,
    trustProxy: e.TRUST_PROXY,
    gateway: {
      host: e.GATEWAY_HOST ?? defaultGatewayHost(new URL(publicUrl).hostname),
      ip: e.GATEWAY_IP,
      httpPort: e.GATEWAY_HTTP_PORT,
      socksPort: e.GATEWAY_SOCKS_PORT,
      stickyPorts: e.GATEWAY_STICKY_PORTS,
      allowPrivateTargets: e.GATEWAY_ALLOW_PRIVATE_TARGETS,
      extraOpenPorts: e.GATEWAY_OPEN_PORTS,
      workers: e.GATEWAY_WORKERS,
      supplyPreference: e.SUPPLY_PREFER,
      agentHub:
        e.GATEWAY_AGENT_PORT === undefined
          ? null
          : {
              port: e.GATEWAY_AGENT_PORT,
              certPath: e.GATEWAY_AGENT_TLS_CERT ? resolve(e.GATEWAY_AGENT_TLS_CERT) : undefined,
              keyPath: e.GATEWAY_AGENT_TLS_KEY ? resolve(e.GATEWAY_AGENT_TLS_KEY) : undefined,
            },
    },
    recaptcha:
      e.RECAPTCHA_SITE_KEY && e.RECAPTCHA_SECRET_KEY
        ? {
            siteKey: e.RECAPTCHA_SITE_KEY,
            secretKey: e.RECAPTCHA_SECRET_KEY,
            verifyUrl: e.RECAPTCHA_VERIFY_URL,
            minScore: e.RECAPTCHA_MIN_SCORE,
          }
        : null,
    google:
      e.GOOGLE_CLIENT_ID && e.GOOGLE_CLIENT_SECRET
        ? {
            clientId: e.GOOGLE_CLIENT_ID,
            clientSecret: e.GOOGLE_CLIENT_SECRET,
            issuerUrl: e.GOOGLE_ISSUER_URL ?? 'https://accounts.google.com',
          }
        : null,
    rateLimits: defaultRateLimits,
    sessionTtlMs: 30 * 24 * 60 * 60 * 1000,
    cryptomus:
      e.CRYPTOMUS_MERCHANT_ID && e.CRYPTOMUS_API_KEY
        ? {
            merchantId: e.CRYPTOMUS_MERCHANT_ID,
            apiKey: e.CRYPTOMUS_API_KEY,
            apiUrl: e.CRYPTOMUS_API_URL.replace(/\/+$/, ''),
          }
        : null,
    bitcart:
      e.BITCART_API_URL && e.BITCART_TOKEN && e.BITCART_STORE_ID
        ? {
            apiUrl: e.BITCART_API_URL.replace(/\/+$/, ''),
            // One-domain mode: the admin (checkout pages, modal script) sits beside the API at /admin.
            adminUrl: (
              e.BITCART_ADMIN_URL ?? e.BITCART_API_URL.replace(/\/+$/, '').replace(/\/api$/, '/admin')
            ).replace(/\/+$/, ''),
            token: e.BITCART_TOKEN,
            storeId: e.BITCART_STORE_ID,
          }
        : null,
    paymentsSandbox: e.PAYMENTS_SANDBOX,
    mail: {
      smtpUrl: e.SMTP_URL ?? null,
      from: e.MAIL_FROM ?? `${PRODUCT_NAME} <no-reply@${new URL(publicUrl).hostname}>`,
    },
    emailVerification:
      e.EMAIL_VERIFICATION === 'auto' ? (e.SMTP_URL ? 'required' : 'off') : e.EMAIL_VERIFICATION,
    supply: { reconcileToleranceBasisPoints: e.SUPPLY_RECONCILE_TOLERANCE_PCT },
    geoip: { cityDb: e.GEOIP_CITY_DB ?? null, asnDb: e.GEOIP_ASN_DB ?? null },
    exitProbe: e.EXIT_PROBE_URL
      ? { url: e.EXIT_PROBE_URL, intervalSeconds: e.EXIT_PROBE_INTERVAL_SECONDS }
      : null,
    webhooks: { allowPrivateTargets: e.WEBHOOKS_ALLOW_PRIVATE_TARGETS },
    shutdownGraceMs: e.SHUTDOWN_GRACE_S * 1000,
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    unsafeSettings,
  };
}

/**
 * A provider is configured completely or not at all: half its settings would otherwise leave it
 * silently unavailable (or, before, silently simulated). Names each missing variable.
 */
function assertAllOrNone(provider: string, settings: Record<string, string | undefined>): void {
  const names = Object.keys(settings);
  const missing = names.filter((name) => !settings[name]);
  if (missing.length === 0 || missing.length === names.length) {
    return;
  }
  const set = names.filter((name) => settings[name]);
  const lines = missing.map(
    (name) =>
      `  ${name}: must be set, because ${set.join(' and ')} ${set.length === 1 ? 'is' : 'are'} (${provider} needs ${names.join(', ')}; leave them all unset to turn it off)`,
  );
  throw new ConfigError(`Invalid settings:\n${lines.join('\n')}`);
}

/** gw.{site host} (SPEC section 9); a local or bare-address site uses its own host, which resolves everywhere. */
function defaultGatewayHost(siteHost: string): string {
  const host = siteHost.replace(/^\[|\]$/g, '');
  return host === 'localhost' || isIP(host) !== 0 ? host : `gw.${host}`;
}
