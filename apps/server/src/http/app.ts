import { fileURLToPath } from 'node:url';
import type { Database } from '@bytegate/db';
import cookie from '@fastify/cookie';
import rateLimit from '@fastify/rate-limit';
import Fastify, { type FastifyInstance, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Redis } from 'ioredis';
import type { Config } from '../config.ts';
import { tellGatewaysOfWrites } from '../gateway/fleet/gateway-changes.ts';
import {
  type LocalGatewayChanges,
  refreshLocalGatewayBeforeAnswering,
} from '../gateway/local-gateway-changes.ts';
import { healthRoutes } from '../health/health.routes.ts';
import { databaseChecks, type ProcessState, redisCheck } from '../health/readiness.ts';
import { createMailer } from '../mail/mailer.ts';
import { metricsRoutes } from '../metrics/metrics.routes.ts';
import type { Metrics } from '../metrics/metrics.ts';
import { PROVIDER_NAMES } from '../payments/provider.ts';
import { createPaymentProviders, type PaymentProviders } from '../payments/providers.ts';
import { bitcartSandbox } from '../payments/sandbox/bitcart-sandbox.ts';
import { CHECKOUT_FRAME_SCRIPT } from '../payments/sandbox/checkout-page.ts';
import { cryptomusSandbox } from '../payments/sandbox/cryptomus-sandbox.ts';
import { createRedis, waitForRedis } from '../redis/redis-client.ts';
import { redisFailureCounts } from '../redis/redis-failure-counter.ts';
import { GoogleOpenId } from '../services/accounts/google/google-openid.ts';
import { TwoFactorCheck } from '../services/accounts/two-factor/two-factor-check.ts';
import { BackgroundTasks } from '../services/background-tasks.ts';
import type { MailContext } from '../services/context.ts';
import { redisLiveSource } from '../services/stats/live-source.ts';
import { registerOpenApi } from './openapi.ts';
import { authPlugin } from './plugins/auth.ts';
import { bodyDepthPlugin } from './plugins/body-depth.ts';
import { errorsPlugin } from './plugins/errors.ts';
import { allowFramingBySelf, securityHeadersPlugin } from './plugins/security-headers.ts';
import { rateLimitError } from './rate-limits.ts';
import { accountRoutes } from './routes/account/account.routes.ts';
import { activityRoutes } from './routes/account/activity.routes.ts';
import { adminRoutes } from './routes/admin/admin.routes.ts';
import { accountLinkRoutes } from './routes/auth/account-links.routes.ts';
import { authRoutes } from './routes/auth/auth.routes.ts';
import { GOOGLE_CALLBACK_PATH, googleAuthRoutes } from './routes/auth/google.routes.ts';
import { configRoutes } from './routes/config/config.routes.ts';
import { contactRoutes } from './routes/contact/contact.routes.ts';
import { dashboardRoutes } from './routes/dashboard/dashboard.routes.ts';
import { notificationsRoutes } from './routes/notifications/notifications.routes.ts';
import { ordersRoutes } from './routes/orders/orders.routes.ts';
import { proxySettingsRoutes } from './routes/proxy-settings/proxy-settings.routes.ts';
import { dashboardProxyUserRoutes } from './routes/proxy-users/dashboard-proxy-users.routes.ts';
import { statsRoutes } from './routes/stats/stats.routes.ts';
import { allowlistRoutes } from './routes/subuser/allowlist.routes.ts';
import { subuserRoutes } from './routes/subuser/subuser.routes.ts';
import { threadRequestsRoutes } from './routes/thread-requests/thread-requests.routes.ts';
import { topupRoutes } from './routes/topup/topup.routes.ts';
import { userSettingsRoutes } from './routes/user-settings/user-settings.routes.ts';
import { v1Routes } from './routes/v1/v1.routes.ts';
import { registerWebApp, type WebApp } from './web.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** What requests started and did not wait for (mail sent after the reply); `idle()` waits for it. */
    backgroundTasks: BackgroundTasks;
  }
}

/** Each provider's built-in sandbox, mounted under /sandbox/<name> where it stands in for the provider. */
const sandboxPlugins = { cryptomus: cryptomusSandbox, bitcart: bitcartSandbox };

export const defaultWebDistDir = fileURLToPath(new URL('../../../web/dist', import.meta.url));

export interface BuildAppOptions {
  config: Config;
  db: Database;
  /**
   * The payment provider registry, built by the composition root and shared with the jobs; without
   * one, the app builds the registry its config describes (for tests that run no jobs).
   */
  payments?: PaymentProviders;
  /** Where the built web app is; it is served when the `web` role is on and the folder holds a build. */
  webDistDir?: string;
  /** A Redis connection to share (tests); by default one is opened when REDIS_URL is set. */
  redis?: Redis;
  /** Fastify's logger; off in tests. */
  logger?: boolean;
  /** Where the log lines go instead of stdout (tests that read them). */
  logStream?: { write(line: string): void };
  /** The connections of the gateway in this process, for the console's health view (none: not shown). */
  gatewayConnections?: MailContext['gatewayConnections'];
  /** This process's Prometheus metrics: served at /metrics when METRICS_TOKEN is set (see metrics.routes.ts). */
  metrics?: Metrics;
  /** The live view's source (the gateway in this process); with REDIS_URL, by default the fleet's. */
  liveStats?: MailContext['liveStats'];
  /** Whether the process drains and leads the jobs, for /readyz (`bytegate start`'s). */
  processState?: ProcessState;
  /** The gateway in this process: a write's answer waits until it has read what was written. */
  gatewayChanges?: LocalGatewayChanges;
}

/**
 * The setting as Fastify takes it: a hop count trusts that many proxies nearest the server (the
 * address each of them reports is believed, and no further back), a list trusts those addresses.
 */
function trustProxyOf(
  setting: Config['trustProxy'],
): boolean | string[] | ((address: string, hop: number) => boolean) {
  if (typeof setting === 'number') {
    return (_address, hop) => hop < setting;
  }
  return setting;
}

/** The HTTP application: the API under /api and the web app, built apart from `listen()`. */
export async function buildApp(options: BuildAppOptions): Promise<FastifyInstance> {
  const { config, db } = options;
  const payments = options.payments ?? createPaymentProviders(config);
  const app = Fastify({
    logger:
      options.logger === false
        ? false
        : { level: config.logLevel, ...(options.logStream ? { stream: options.logStream } : {}) },
    trustProxy: trustProxyOf(config.trustProxy),
    // API bodies are small JSON documents; anything bigger is refused before it is parsed.
    bodyLimit: 64 * 1024,
    // Per-request lines only when debugging; errors are logged by the error handler either way.
    logController: new LogController({
      disableRequestLogging: config.logLevel !== 'debug' && config.logLevel !== 'trace',
    }),
  });
  const background = new BackgroundTasks(app.log);
  const ctx: MailContext = {
    config,
    db,
    log: app.log,
    mailer: createMailer(config, app.log),
    background,
    gatewayConnections: options.gatewayConnections,
    liveStats: options.liveStats,
  };
  // Mail a request left to send after its reply goes out before the app closes.
  app.decorate('backgroundTasks', background);
  app.addHook('onClose', () => background.idle());
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  await app.register(errorsPlugin);
  await app.register(bodyDepthPlugin);
  await app.register(securityHeadersPlugin, { config });
  // With REDIS_URL the API's rate limits count across every API process; while Redis is away they let
  // requests through (skipOnError) rather than refuse everyone: the Redis-down policy of docs/processes.md.
  const redis = config.redisUrl ? (options.redis ?? createRedis(config.redisUrl)) : null;
  if (redis && !options.redis) {
    app.addHook('onClose', async () => {
      redis.disconnect();
    });
    if (!(await waitForRedis(redis, 2000))) {
      app.log.warn('Redis is not answering: rate limits let requests through until it does');
    }
  }
  if (redis && !ctx.liveStats) {
    // Every gateway of the fleet publishes its live figures in Redis: the live view adds them up.
    const fleetLive = redisLiveSource(redis, config.redisPrefix);
    ctx.liveStats = () => fleetLive;
  }
  await app.register(rateLimit, {
    global: false,
    errorResponseBuilder: rateLimitError(),
    ...(redis ? { redis, nameSpace: `${config.redisPrefix}rate:`, skipOnError: true } : {}),
  });
  await app.register(cookie);
  await app.register(authPlugin, { ctx });
  await registerOpenApi(app);

  // The sandboxes' checkout pages are shown inside our own checkout dialog: framing by our origin only.
  const sandboxFraming = allowFramingBySelf(config);
  await app.register(async (sandboxes) => {
    if (!config.roles.has('api')) {
      return;
    }
    // Set on the route's config, where @fastify/helmet reads route options (its onRoute hook ran first).
    sandboxes.addHook('onRoute', (route) => {
      route.config = {
        ...route.config,
        // @ts-expect-error: @fastify/helmet types the option on the route, not on its config
        helmet: {
          contentSecurityPolicy: { useDefaults: false, directives: sandboxFraming },
          xFrameOptions: { action: 'sameorigin' },
        },
      };
    });
    if (payments.hasSandbox) {
      sandboxes.get('/sandbox/checkout-frame.js', { schema: { hide: true } }, async (_request, reply) =>
        reply.type('text/javascript; charset=utf-8').send(CHECKOUT_FRAME_SCRIPT),
      );
    }
    for (const name of PROVIDER_NAMES) {
      if (payments.modes[name] === 'sandbox') {
        await sandboxes.register(sandboxPlugins[name]({ publicBaseUrl: () => config.publicUrl }), {
          prefix: `/sandbox/${name}`,
        });
      }
    }
  });

  if (options.gatewayChanges) {
    refreshLocalGatewayBeforeAnswering(app, options.gatewayChanges);
  }
  if (redis) {
    options.metrics?.trackRedis(redis);
    tellGatewaysOfWrites(app, redis, config.redisPrefix);
  }
  if (options.metrics && config.metrics.token) {
    await app.register(metricsRoutes, { metrics: options.metrics, token: config.metrics.token });
  }
  await app.register(healthRoutes, {
    checks: [...databaseChecks(db), ...(redis ? [redisCheck(redis)] : [])],
    state: options.processState,
  });

  // The API (and the payment sandboxes' pages above, which answer its invoices) is the `api` role's.
  await app.register(
    async (api) => {
      if (!config.roles.has('api')) {
        return;
      }
      api.get('/health', { schema: { hide: true } }, async () => ({ status: 'ok' }));
      await api.register(configRoutes, { config, payments });
      const failureCounts = redis ? redisFailureCounts(redis, config.redisPrefix) : undefined;
      // One count of wrong two-factor codes per account, at sign-in and in user settings alike.
      const twoFactor = new TwoFactorCheck(config.rateLimits.twoFactorFailuresPerUser, failureCounts);
      // Sign-in with Google: its client is built once (it keeps the issuer's discovered endpoints).
      const google = config.google
        ? new GoogleOpenId(config.google, `${config.publicUrl}${GOOGLE_CALLBACK_PATH}`)
        : null;
      await api.register(authRoutes, { ctx, loginFailureCounts: failureCounts, twoFactor });
      await api.register(googleAuthRoutes, { ctx, google });
      await api.register(accountLinkRoutes, { ctx });
      await api.register(userSettingsRoutes, { ctx, twoFactor, google });
      await api.register(accountRoutes);
      await api.register(activityRoutes, { ctx });
      await api.register(contactRoutes, { ctx });
      await api.register(subuserRoutes, { ctx });
      await api.register(allowlistRoutes, { ctx });
      await api.register(threadRequestsRoutes, { ctx });
      await api.register(proxySettingsRoutes, { ctx });
      await api.register(ordersRoutes, { ctx });
      await api.register(dashboardRoutes, { ctx });
      await api.register(topupRoutes, { ctx, payments });
      await api.register(adminRoutes, { ctx, payments, prefix: '/admin' });
      await api.register(dashboardProxyUserRoutes, { ctx });
      await api.register(notificationsRoutes, { ctx });
      await api.register(statsRoutes, { ctx });
      await api.register(v1Routes, { ctx, payments, prefix: '/v1' });
    },
    { prefix: '/api' },
  );

  let web: WebApp | null = null;
  if (config.roles.has('web')) {
    web = await registerWebApp(app, {
      distDir: options.webDistDir ?? defaultWebDistDir,
      publicUrl: config.publicUrl,
    });
  }
  app.setNotFoundHandler((request, reply) => {
    const pathname = request.url.split('?')[0] ?? '/';
    if (
      pathname === '/api' ||
      pathname.startsWith('/api/') ||
      !web ||
      (request.method !== 'GET' && request.method !== 'HEAD')
    ) {
      return reply.status(404).send({ error: `No route ${request.method} ${pathname}`, code: 'NOT_FOUND' });
    }
    return web.sendPage(request, reply);
  });
  return app;
}
