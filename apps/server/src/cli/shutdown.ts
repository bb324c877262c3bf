import { constants } from 'node:os';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { RunningGateway } from '../gateway/run-gateway.ts';

/** One running part of the process, as a shutdown stops it. */
export interface RunningPart {
  name: string;
  /**
   * Stops taking new work at once, lets work under way finish for up to `graceMs`, then cuts it. May
   * answer what it found (logged with its name).
   */
  stop(graceMs: number): Promise<Record<string, unknown> | undefined>;
}

export interface ShutdownParts {
  /** Stopped together, so every part stops accepting at the same moment and shares the grace. */
  parts: RunningPart[];
  /** Then, in order, once every part has stopped: what their last flushes need (the database). */
  last: RunningPart[];
}

/**
 * What the final steps (the last usage flush, closing the database) may take past the grace before
 * the process exits anyway: a database that stopped answering must not hold a stopping process.
 */
export const FINAL_STEPS_MS = 10_000;

/** Stops everything; answers whether every part stopped without an error. */
export async function shutDown(
  { parts, last }: ShutdownParts,
  graceMs: number,
  log: Pick<FastifyBaseLogger, 'info' | 'error'>,
): Promise<boolean> {
  const stopOne = async (part: RunningPart): Promise<boolean> => {
    const startedAt = Date.now();
    try {
      const details = await part.stop(graceMs);
      log.info({ part: part.name, ms: Date.now() - startedAt, ...details }, `${part.name} stopped`);
      return true;
    } catch (error) {
      log.error({ err: error, part: part.name }, `${part.name} did not stop cleanly`);
      return false;
    }
  };
  const stopped = await Promise.all(parts.map(stopOne));
  for (const part of last) {
    stopped.push(await stopOne(part));
  }
  return stopped.every(Boolean);
}

/**
 * SIGTERM and SIGINT: the first drains every part (shutDown) and exits 0, or 1 when a part failed to
 * stop or the final steps outran FINAL_STEPS_MS; a second exits at once with 128 + the signal's number
 * (130 for SIGINT, 143 for SIGTERM), as a process killed by it would.
 */
export function exitOnSignals(options: {
  /** Read when the signal comes: parts started after this call are included. */
  parts: () => ShutdownParts;
  graceMs: number;
  log: Pick<FastifyBaseLogger, 'info' | 'warn' | 'error'>;
  /** Called at the first signal, before any part stops: /readyz answers 503 from this moment. */
  onDrain?: () => void;
}): void {
  const { graceMs, log } = options;
  let isStopping = false;
  const onSignal = (signal: 'SIGINT' | 'SIGTERM') => {
    if (isStopping) {
      log.warn({ signal }, `${signal} received again: exiting now, without waiting`);
      process.exit(128 + constants.signals[signal]);
    }
    isStopping = true;
    options.onDrain?.();
    log.info(
      { signal, graceMs },
      `${signal} received: draining for up to ${graceMs / 1000} s (send it again to exit at once)`,
    );
    setTimeout(() => {
      log.error({ signal }, 'shutdown did not finish in time: exiting');
      process.exit(1);
    }, graceMs + FINAL_STEPS_MS);
    void shutDown(options.parts(), graceMs, log).then((isClean) => {
      log.info({ isClean }, 'shutdown complete');
      process.exit(isClean ? 0 : 1);
    });
  };
  process.on('SIGINT', () => onSignal('SIGINT'));
  process.on('SIGTERM', () => onSignal('SIGTERM'));
}

/** The proxy gateway: drains (tunnels finish or are cut at the grace), then flushes metering a last time. */
export function gatewayPart(gateway: RunningGateway, log: Pick<FastifyBaseLogger, 'warn'>): RunningPart {
  return {
    name: 'gateway',
    async stop(graceMs) {
      const report = await gateway.drain(graceMs);
      const cut = report.cutConnections;
      if (cut > 0) {
        log.warn(
          { cutAtDeadline: cut },
          `gateway: cut ${cut} ${cut === 1 ? 'connection' : 'connections'} still open at the deadline`,
        );
      }
      if (!report.isUsageStored) {
        throw new Error('the last usage flush failed: the metering since the previous flush is lost');
      }
      return { openAtStart: report.openAtStart, cutAtDeadline: report.cutConnections };
    },
  };
}

/**
 * A Fastify app: closing stops accepting and waits for the requests under way (idle keep-alive
 * connections go at once); connections still open when the grace runs out are cut.
 */
export function httpAppPart(name: string, app: FastifyInstance): RunningPart {
  return {
    name,
    async stop(graceMs) {
      const deadline = setTimeout(() => app.server.closeAllConnections(), graceMs);
      try {
        await app.close();
      } finally {
        clearTimeout(deadline);
      }
      return undefined;
    },
  };
}

/** A part that stops without a grace (a timer, a channel, the database). */
export function simplePart(name: string, stop: () => Promise<void> | void): RunningPart {
  return {
    name,
    async stop() {
      await stop();
      return undefined;
    },
  };
}
