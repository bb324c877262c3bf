import type { Config } from '../config.ts';
import { type RunningGateway, runGateway } from '../gateway/run-gateway.ts';
import { buildApp } from '../http/app.ts';
import { exitProbeJobs } from '../jobs/probe-exits.ts';
import { prunePaymentEvents } from '../jobs/prune-payment-events.ts';
import { pruneSessions } from '../jobs/prune-sessions.ts';
import { pruneUsage } from '../jobs/prune-usage.ts';
import { reconcileTopups } from '../jobs/reconcile-topups.ts';
import { startJobs } from '../jobs/scheduler.ts';
import { createMailer } from '../mail/mailer.ts';
import { createPaymentProviders } from '../payments/providers.ts';
import { seedDemoExits } from '../services/inventory/seed-demo-exits.ts';
import { openAdminChannel } from './admin-channel.ts';
import { openDatabase } from './open-database.ts';
import { paymentsBannerLine } from './payments-banner.ts';

/** `bytegate start`: migrates, then serves the web app and the API, runs the proxy gateway and the jobs. */
export async function start(config: Config): Promise<void> {
  const database = await openDatabase(config);
  await database.migrate();
  // One registry of payment providers for the API and the jobs.
  const payments = createPaymentProviders(config);
  let gateway: RunningGateway | null = null;
  // The console's health view reads this process's gateway, once it runs.
  const gatewayConnections = () => gateway?.connections() ?? null;
  const app = await buildApp({ config, db: database.db, payments, gatewayConnections });
  const ctx = { config, db: database.db, log: app.log };
  const stopJobs = config.roles.has('jobs')
    ? startJobs(
        [
          { name: 'prune-sessions', everyMs: 60 * 60 * 1000, run: () => pruneSessions(ctx) },
          { name: 'prune-usage', everyMs: 60 * 60 * 1000, run: () => pruneUsage(ctx) },
          {
            name: 'prune-payment-events',
            everyMs: 60 * 60 * 1000,
            run: async () => {
              await prunePaymentEvents(ctx);
            },
          },
          {
            name: 'reconcile-topups',
            everyMs: 60 * 1000,
            run: async () => {
              await reconcileTopups(ctx, payments);
            },
          },
          ...exitProbeJobs(ctx),
        ],
        app.log,
      )
    : () => {};
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
  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) {
      return;
    }
    isStopping = true;
    app.log.info(`${signal} received, shutting down`);
    stopJobs();
    await adminChannel?.close();
    await gateway?.stop();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  if (config.roles.has('gateway')) {
    // The embedded (demo) install gets a small inventory so every pool works out of the box.
    if (!config.databaseUrl) {
      const seeded = await seedDemoExits(database.db);
      if (seeded > 0) {
        app.log.info(`seeded ${seeded} demo exits`);
      }
    }
    gateway = await runGateway(config, database.db, app.log);
  }
  const storage = database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  const host = config.gateway.host;
  const proxy = gateway
    ? [
        `\n  Proxy gateway: http://${host}:${gateway.httpPort} (HTTP and CONNECT)`,
        gateway.socksPort === undefined ? '' : `, socks5://${host}:${gateway.socksPort}`,
        gateway.stickyPorts
          ? `, sticky ports ${gateway.stickyPorts.first}-${gateway.stickyPorts.last} (HTTP or SOCKS5)`
          : '',
      ].join('')
    : '';
  console.log(
    `\n  Bytegate is running: open ${config.publicUrl}\n  API reference: ${config.publicUrl}/api/docs${proxy}\n  Storage: ${storage}\n  ${paymentsBannerLine(payments.modes)}\n`,
  );
}
