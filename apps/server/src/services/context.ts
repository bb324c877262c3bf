import type { Database } from '@bytegate/db';
import type { Config } from '../config.ts';

/** What every use case gets: the database and the settings, passed in, never imported. */
export interface ServiceContext {
  db: Database;
  config: Config;
}

/** Who is asking: the client's address and agent, recorded on sessions and messages. */
export interface RequestOrigin {
  ipAddress: string | null;
  userAgent: string | null;
}
