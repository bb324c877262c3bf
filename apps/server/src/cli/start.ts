import cluster from 'node:cluster';
import type { Config } from '../config.ts';
import { agentHubBannerLine } from '../gateway/agents/agent-hub-banner.ts';
import { loadAgentHubCertificate } from '../gateway/agents/run-agent-hub.ts';
import { LocalGatewayChanges } from '../gateway/local-gateway-changes.ts';
import { type RunningGateway, runGateway } from '../gateway/run-gateway.ts';
import { useGeoipDatabases } from '../geoip/geoip-databases.ts';
import {
  databaseChecks,
  handleHealthRequest,
  type ProcessState,
  readinessProbe,
  redisCheck,
} from '../health/readiness.ts';
import { buildApp } from '../http/app.ts';
import { backgroundJobs } from '../jobs/background-jobs.ts';
import { type JobsLeadership, leadJobsWhenElected } from '../jobs/leader.ts';
import { startJobs } from '../jobs/scheduler.ts';
import { createMailer, smtpOptionsOf } from '../mail/mailer.ts';
import { outboxDir } from '../mail/outbox.ts';
import { createMetrics } from '../metrics/metrics.ts';
import { type MetricsServer, startMetricsServer } from '../metrics/metrics-server.ts';
import { createPaymentProviders } from '../payments/providers.ts';
import { createRedis } from '../redis/redis-client.ts';
import { seedDemoExits } from '../services/inventory/seed-demo-exits.ts';
import { unavailableLiveSource } from '../services/stats/live-source.ts';
import { openAdminChannel } from './admin-channel.ts';
import { openDataDirWarning, restrictNewFilesToOwner } from './data-dir.ts';
import { startGatewayWorkers } from './gateway-workers.ts';
import { openDatabase } from './open-database.ts';
import { paymentsBannerLine } from './payments-banner.ts';
import { exitOnSignals, gatewayPart, httpAppPart, simplePart } from './shutdown.ts';
import { claimSoleProcess } from './sole-process.ts';

/**
 * `bytegate start`: migrates, then runs the parts `ROLES` names: the web app and the API on one HTTP port
 * (`web`, `api`), the proxy gateway's listeners (`gateway`) and the background jobs (`jobs`; on PostgreSQL
 * in one process of the fleet only, the elected leader).
 */
export async function start(config: Config): Promise<void> {
  // With GATEWAY_WORKERS above 1 the gateway runs in worker processes this one starts (gateway-workers.ts).
  const hasGatewayWorkers = config.roles.has('gateway') && config.gateway.workers > 1 && cluster.isPrimary;
  const runsGateway = config.roles.has('gateway') && !hasGatewayWorkers;
  // Where the hub and the jobs locate addresses (GEOIP_CITY_DB, GEOIP_ASN_DB; packaged when unset).
  useGeoipDatabases(config.geoip);
  // Before any file is made: the embedded database, the outbox and the admin socket are the owner's only.
  restrictNewFilesToOwner();
  const dataDirWarning = openDataDirWarning(config.dataDir);
  const database = await openDatabase(config);
  await database.migrate();
  // Parts that keep state in their own memory run once per PostgreSQL database (see sole-process.ts).
  const releases: Array<() => Promise<void>> = [];
  try {
    if (config.databaseUrl && runsGateway && !config.redisUrl) {
      releases.push(await claimSoleProcess(config.databaseUrl, 'gateway'));
    }
    if (config.databaseUrl && config.roles.has('api') && !config.redisUrl) {
      releases.push(await claimSoleProcess(config.databaseUrl, 'api'));
    }
  } catch (error) {
    await Promise.all(releases.map((release) => release()));
    await database.close();
    throw error;
  }
  // One registry of payment providers for the API and the jobs.
  const payments = createPaymentProviders(config);
  // What /readyz and /metrics say of this process: draining from the first signal, and (with the jobs
  // role) whether it leads the jobs: always on the embedded database, else when elected.
  let isDraining = false;
  let leadership: JobsLeadership | null = null;
  const processState: ProcessState = {
    isDraining: () => isDraining,
    ...(config.roles.has('jobs')
      ? { isJobsLeader: () => (config.databaseUrl ? (leadership?.isLeader() ?? false) : true) }
      : {}),
  };
  let gateway: RunningGateway | null = null;
  let gatewayWorkers: ReturnType<typeof startGatewayWorkers> | null = null;
  // The console's health view reads this process's gateway, once it runs.
  const gatewayConnections = () => gateway?.connections() ?? null;
  // Prometheus (docs/processes.md "Metrics"): /metrics on the HTTP app with METRICS_TOKEN, on METRICS_PORT alone.
  const metrics = createMetrics({
    db: database.db,
    ...(runsGateway ? { gateway: () => gateway?.stats() ?? null } : {}),
    ...(runsGateway && config.redisUrl ? { gatewaySharedState: () => gateway?.sharedState() ?? null } : {}),
    ...(processState.isJobsLeader ? { isJobsLeader: processState.isJobsLeader } : {}),
  });
  let metricsServer: MetricsServer | null = null;
  let healthRedis: ReturnType<typeof createRedis> | null = null;
  // The live view: the fleet's figures in Redis (buildApp's default), else the gateway in this process.
  const liveStats = config.redisUrl ? undefined : () => gateway?.live ?? unavailableLiveSource;
  // An API write answers once the gateway in this process has read it (a changed password: refused at once).
  const gatewayChanges = new LocalGatewayChanges();
  const app = await buildApp({
    config,
    db: database.db,
    payments,
    gatewayConnections,
    metrics,
    liveStats,
    processState,
    gatewayChanges,
  });
  if (dataDirWarning) {
    app.log.warn({ dataDir: config.dataDir }, dataDirWarning);
  }
  for (const unsafe of config.unsafeSettings) {
    app.log.warn({ unsafe: unsafe.name }, `UNSAFE SETTINGS (I_KNOW_THIS_IS_UNSAFE): ${unsafe.danger}`);
  }
  const ctx = { config, db: database.db, log: app.log, mailer: createMailer(config, app.log) };
  const jobs = backgroundJobs(ctx, payments);
  let stopJobs: () => Promise<void> = async () => undefined;
  if (config.roles.has('jobs')) {
    if (config.databaseUrl) {
      const elected = leadJobsWhenElected({
        databaseUrl: config.databaseUrl,
        startJobs: () => startJobs(jobs, app.log),
        log: app.log,
      });
      leadership = elected;
      stopJobs = () => elected.stop();
    } else {
      const stop = startJobs(jobs, app.log);
      stopJobs = async () => stop();
    }
  }
  // Back-office commands reach the embedded database, which only this process may open, through here.
  const adminChannel =
    database.kind === 'pglite'
      ? await openAdminChannel({
          dataDir: config.dataDir,
          services: { config, db: database.db, log: app.log, mailer: createMailer(config, app.log) },
        }).catch((error: unknown) => {
          app.log.warn(
            { err: error },
            'the admin channel could not be opened: back-office commands need the server stopped',
          );
          return null;
        })
      : null;
  // SIGTERM drains (docs/processes.md "Shutdown"): every part stops accepting at once, work under way gets the grace.
  exitOnSignals({
    graceMs: config.shutdownGraceMs,
    log: app.log,
    onDrain: () => {
      isDraining = true;
    },
    parts: () => ({
      parts: [
        simplePart('jobs', stopJobs),
        simplePart('admin channel', async () => adminChannel?.close()),
        ...(gateway ? [gatewayPart(gateway, app.log)] : []),
        ...(gatewayWorkers ? [gatewayWorkers] : []),
        httpAppPart('http', app),
      ],
      last: [
        // Scraped to the end of the drain; closed before the database it reads.
        simplePart('metrics port', async () => {
          await metricsServer?.close();
          healthRedis?.disconnect();
        }),
        simplePart('process claims', async () => {
          await Promise.all(releases.map((release) => release()));
        }),
        simplePart('database', () => database.close()),
      ],
    }),
  });

  // The HTTP port serves the web app and the API; a gateway- or jobs-only process opens none.
  const servesHttp = config.roles.has('web') || config.roles.has('api');
  if (servesHttp) {
    await app.listen({ port: config.port, host: config.host });
  }
  if (hasGatewayWorkers) {
    if (config.gateway.agentHub) {
      // Made once here, not by each worker at the same moment: every worker presents the same one.
      await loadAgentHubCertificate(config);
    }
    gatewayWorkers = startGatewayWorkers(config, app.log);
  }
  if (runsGateway) {
    // The embedded (demo) install gets a small inventory so every pool works out of the box.
    if (!config.databaseUrl) {
      const seeded = await seedDemoExits(database.db);
      if (seeded > 0) {
        app.log.info(`seeded ${seeded} demo exits`);
      }
    }
    gateway = await runGateway(config, database.db, app.log, {
      onUsageFlush: metrics.observeUsageFlush,
      changes: gatewayChanges,
    });
  }
  if (config.metrics.port !== undefined) {
    // Ready means the database answers and the process is not draining; with REDIS_URL, Redis is
    // reported too, but a process serves on without it (every one limits on its own meanwhile), so a
    // balancer routing on /readyz keeps the fleet in.
    healthRedis = config.redisUrl ? createRedis(config.redisUrl) : null;
    const readiness = readinessProbe(
      [...databaseChecks(database.db), ...(healthRedis ? [redisCheck(healthRedis)] : [])],
      { state: processState },
    );
    metricsServer = await startMetricsServer({
      host: config.metrics.host,
      port: config.metrics.port,
      metrics,
      token: config.metrics.token,
      // A gateway- or jobs-only process has no HTTP app: its health is probed here.
      handlers: [(req, res) => handleHealthRequest(req, res, readiness)],
    });
  }
  const storage = database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  const host = config.gateway.host;
  const ports = gateway ?? (hasGatewayWorkers ? config.gateway : null);
  const proxy = ports
    ? [
        `\n  Proxy gateway: http://${host}:${ports.httpPort} (HTTP and CONNECT)`,
        ports.socksPort === undefined ? '' : `, socks5://${host}:${ports.socksPort}`,
        ports.stickyPorts
          ? `, sticky ports ${ports.stickyPorts.first}-${ports.stickyPorts.last} (HTTP or SOCKS5)`
          : '',
        hasGatewayWorkers ? `, in ${config.gateway.workers} worker processes` : '',
      ].join('')
    : '';
  const roles = [...config.roles].join(', ');
  const site = servesHttp
    ? `open ${config.publicUrl}${config.roles.has('api') ? `\n  API reference: ${config.publicUrl}/api/docs` : ''}`
    : `no HTTP port (roles: ${roles})`;
  // Payments are the API's: a gateway- or jobs-only process takes none, so it announces no TEST MODE.
  const paymentsLine = config.roles.has('api') ? `  ${paymentsBannerLine(payments.modes)}\n` : '';
  const warnings = [
    ...(dataDirWarning ? [dataDirWarning] : []),
    ...config.unsafeSettings.map(
      (unsafe) => `UNSAFE (I_KNOW_THIS_IS_UNSAFE=${unsafe.name}): ${unsafe.danger}`,
    ),
  ]
    .map((line) => `  WARNING: ${line}\n`)
    .join('');
  const agentsLine = gateway?.agentHub ? agentHubBannerLine(config, gateway.agentHub) : '';
  console.log(
    `\n  Bytegate is running: ${site}${proxy}\n  Roles: ${roles}\n  Storage: ${storage}\n${agentsLine}${paymentsLine}${mailBannerLine(config)}${warnings}`,
  );
}

/** Where mail goes (never SMTP_URL itself: it holds the password) and whether sign-ups must verify. */
function mailBannerLine(config: Config): string {
  if (!config.roles.has('api')) {
    return '';
  }
  const { smtpUrl } = config.mail;
  const server = smtpUrl ? smtpOptionsOf(smtpUrl) : null;
  const where = server ? `SMTP ${server.host}:${server.port}` : `written to ${outboxDir(config.dataDir)}`;
  return `  Mail: ${where}; email verification ${config.emailVerification}\n`;
}
