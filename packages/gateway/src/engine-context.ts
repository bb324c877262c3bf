import type { Socket } from 'node:net';
import type { Admitted } from './admission.ts';
import type { AuthThrottle } from './auth-throttle.ts';
import type { GatewayCounters } from './counters.ts';
import { GatewayError } from './errors.ts';
import type { TargetPool } from './http1/target-pool.ts';
import type { TargetPolicy } from './policy/target-policy.ts';
import { errorReply } from './replies.ts';
import type { SessionDirectory, ThreadSlots } from './shared-state.ts';
import { endWith } from './tunnel/end-with.ts';
import type { DialSettings } from './tunnel/exit-dialer.ts';
import type { PendingConnections, PendingRefusal } from './tunnel/pending-connections.ts';
import type { GatewayLog } from './tunnel/usage-flush.ts';
import type { UsageMeter } from './tunnel/usage-meter.ts';

/**
 * What every listener of one engine works with: built once by createGateway and handed to each
 * connection with its ClientSession. Listeners share this module, never each other's.
 */
export interface EngineContext extends DialSettings {
  threads: ThreadSlots;
  meter: UsageMeter;
  /** Sticky sessions shared with the other gateways (SharedGatewayState); none in-process. */
  directory?: SessionDirectory | undefined;
  policy: TargetPolicy;
  /** Kept-alive connections to targets for forward requests. */
  targetPool: TargetPool;
  /** Connections not yet authenticated: capped per client and in total, under a deadline. */
  pending: PendingConnections;
  /** Connections and refusals, for metrics. */
  counters: GatewayCounters;
  /** Each refusal and cut request at debug (the server's logger). */
  log?: GatewayLog | undefined;
  /** Failed proxy logins: slowed, then refused. */
  throttle: AuthThrottle;
}

/**
 * Writes an HTTP refusal straight to the client socket (exact bytes, left out of the bill) and closes
 * it; an admitted connection's refusal counts as a failed request of its plan.
 */
export function refuseHttp(
  ctx: Pick<EngineContext, 'meter' | 'counters' | 'log'>,
  client: Socket,
  error: unknown,
  admitted: Admitted | null,
): void {
  const gatewayError = asGatewayError(error);
  refuseWith(
    ctx,
    client,
    admitted,
    gatewayError,
    errorReply(gatewayError.code, gatewayError.message, gatewayError.retryAfterSeconds),
  );
}

/** A failure as the gateway answers it: its own refusals as they are, anything else as an unreachable target. */
export function asGatewayError(error: unknown): GatewayError {
  return error instanceof GatewayError
    ? error
    : new GatewayError('NO_HOST_CONNECTION', 'The target could not be reached');
}

/**
 * Sends a refusal in any protocol and closes: its bytes are left out of the bill, and a refusal that came
 * after the credentials were accepted counts as a failed request of its plan.
 */
export function refuseWith(
  ctx: Pick<EngineContext, 'meter' | 'counters' | 'log'>,
  client: Socket,
  admitted: Admitted | null,
  error: GatewayError,
  bytes: Buffer,
): void {
  countRefusal(ctx, client, admitted, error);
  ctx.log?.debug?.(
    { code: error.code, planId: admitted?.plan.planId ?? error.account?.planId },
    `gateway refused a request: ${error.message}`,
  );
  // A kept-alive connection stays metered for its last request's plan: the refusal is never billed.
  ctx.meter.exclude(client, bytes.length);
  endWith(client, bytes);
}

/**
 * Counts a refusal for the metrics and, once the credentials (or the allowlist) named a plan, in that
 * plan's usage by error code: an admitted request's (with its target host), or one refused on the way in
 * (a username grammar error or conflict, no traffic, no thread), which GatewayError.account names.
 */
export function countRefusal(
  ctx: Pick<EngineContext, 'meter' | 'counters'>,
  client: Socket,
  admitted: Admitted | null,
  error: GatewayError,
): void {
  ctx.counters.refusals[error.code] += 1;
  if (admitted) {
    ctx.meter.countRequest(admitted.plan.planId, error.code, admitted.userKey, client);
  } else if (error.account) {
    ctx.meter.countRequest(error.account.planId, error.code, error.account.userKey);
  }
}

/** What a refused connection is told to wait before trying again. */
const RETRY_AFTER_SECONDS = 1;

const PENDING_MESSAGES: Record<PendingRefusal, string> = {
  TOO_MANY_CONNECTIONS: 'Too many connections from your address are still authenticating; retry shortly',
  OVERLOADED: 'The gateway is busy; retry shortly',
};

/**
 * Turns a connection away before reading it (over the caps of PendingConnections), in the protocol of
 * its port: an HTTP refusal with Retry-After, or a SOCKS5 "no acceptable method" (the answer to any
 * greeting).
 */
export function turnAway(
  counters: GatewayCounters,
  socket: Socket,
  refusal: PendingRefusal,
  protocol: 'http' | 'socks5',
): void {
  counters.refusals[refusal] += 1;
  socket.on('error', () => socket.destroy());
  endWith(
    socket,
    protocol === 'http'
      ? errorReply(refusal, PENDING_MESSAGES[refusal], RETRY_AFTER_SECONDS)
      : Buffer.from([0x05, 0xff]),
  );
}
