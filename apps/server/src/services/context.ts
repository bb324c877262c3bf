import type { Database } from '@bytegate/db';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';

/** What every use case gets: the database and the settings, passed in, never imported. */
export interface ServiceContext {
  db: Database;
  config: Config;
  /** The server's pino logger, for what an operator must act on (a top-up held for review). */
  log?: FastifyBaseLogger;
}

/** Who is asking: the client's address and agent, recorded on sessions and messages. */
export interface RequestOrigin {
  ipAddress: string | null;
  userAgent: string | null;
}
