import type { Config } from '../config.ts';
import { buildApp } from '../http/app.ts';
import { pruneSessions } from '../jobs/prune-sessions.ts';
import { pruneUsage } from '../jobs/prune-usage.ts';
import { reconcileTopups } from '../jobs/reconcile-topups.ts';
import { startJobs } from '../jobs/scheduler.ts';
import { openDatabase } from './open-database.ts';

/** `bytegate start`: migrates, then serves the web app and the API and runs the jobs (and later the gateway). */
export async function start(config: Config): Promise<void> {
  const database = await openDatabase(config);
  await database.migrate();
  const app = await buildApp({ config, db: database.db });
  const ctx = { config, db: database.db };
  const stopJobs = config.roles.has('jobs')
    ? startJobs(
        [
          { name: 'prune-sessions', everyMs: 60 * 60 * 1000, run: () => pruneSessions(ctx) },
          { name: 'prune-usage', everyMs: 60 * 60 * 1000, run: () => pruneUsage(ctx) },
          {
            name: 'reconcile-topups',
            everyMs: 60 * 1000,
            run: async () => {
              await reconcileTopups(ctx, app.payments);
            },
          },
        ],
        app.log,
      )
    : () => {};
  let isStopping = false;
  const stop = async (signal: string) => {
    if (isStopping) {
      return;
    }
    isStopping = true;
    app.log.info(`${signal} received, shutting down`);
    stopJobs();
    await app.close();
    await database.close();
    process.exit(0);
  };
  process.once('SIGINT', () => void stop('SIGINT'));
  process.once('SIGTERM', () => void stop('SIGTERM'));

  await app.listen({ port: config.port, host: config.host });
  const storage = database.kind === 'pglite' ? `embedded database in ${config.dataDir}` : 'PostgreSQL';
  console.log(
    `\n  Bytegate is running: open ${config.publicUrl}\n  API reference: ${config.publicUrl}/api/docs\n  Storage: ${storage}\n`,
  );
}
