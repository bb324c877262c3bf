import type { Database } from '@bytegate/db';
import type { GatewayConnections } from '@bytegate/gateway';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../config.ts';
import type { Mailer } from '../mail/mailer.ts';
import type { BackgroundTasks } from './background-tasks.ts';

/** What every use case gets: the database and the settings, passed in, never imported. */
export interface ServiceContext {
  db: Database;
  config: Config;
  /** The server's pino logger, for what an operator must act on (a top-up held for review). */
  log?: FastifyBaseLogger;
  /** Outgoing mail (SMTP, or the outbox without SMTP_URL); buildApp sets it, see `MailContext`. */
  mailer?: Mailer;
  /** Work requests start and do not wait for (mail sent after the reply); buildApp sets it. */
  background?: BackgroundTasks;
  /** What the gateway running in this process holds open now; null while it runs none (see cli/start.ts). */
  gatewayConnections?: () => GatewayConnections | null;
}

/** The context of a use case that sends mail: the one the HTTP app builds, with its mailer. */
export type MailContext = ServiceContext & { mailer: Mailer };

/** Who is asking: the client's address and agent, recorded on sessions and messages. */
export interface RequestOrigin {
  ipAddress: string | null;
  userAgent: string | null;
}
