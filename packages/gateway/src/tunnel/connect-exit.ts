import { lookup } from 'node:dns/promises';
import { isIP, type Socket } from 'node:net';
import { GatewayError } from '../errors.ts';
import {
  checkAddress,
  checkHost,
  checkPort,
  type TargetPolicy,
  type Unblocks,
} from '../policy/target-policy.ts';
import { chooseExit, pickExit, type StickyChoice, sessionKey, sessionTtlMs } from '../routing/select-exit.ts';
import type { UsernameParams } from '../routing/username.ts';
import type { Exit } from '../store.ts';
import { connectTarget } from './relay.ts';
import { connectViaUpstream } from './upstream.ts';

export interface Target {
  host: string;
  port: number;
}

/** Resolves the target once and checks the address we will really connect to (no DNS rebinding). */
export async function resolveTarget(
  policy: TargetPolicy,
  target: Target,
  unblocks?: Unblocks,
): Promise<string> {
  checkPort(policy, target.port, unblocks);
  checkHost(policy, target.host, unblocks);
  let address = target.host.replace(/^\[|\]$/g, '');
  if (isIP(address) === 0) {
    try {
      address = (await lookup(address)).address;
    } catch {
      throw new GatewayError('NO_HOST_CONNECTION', `Cannot resolve ${target.host}`);
    }
  }
  checkAddress(policy, address);
  return address;
}

/** The default of the gateway's exitConnectTimeoutMs. */
export const EXIT_CONNECT_TIMEOUT_MS = 10_000;

/**
 * Fails a TCP connection that has not opened within `timeoutMs`: a target that drops SYNs would
 * otherwise hold the client for the OS's two minutes before it hears anything.
 */
export function limitConnectTime(socket: Socket, timeoutMs: number): void {
  const timer = setTimeout(
    () => socket.destroy(new Error(`no connection within ${timeoutMs} ms`)),
    timeoutMs,
  );
  socket.once('connect', () => clearTimeout(timer));
  socket.once('close', () => clearTimeout(timer));
}

function openFrom(exit: Exit, address: string, port: number, timeoutMs: number): Promise<Socket> {
  if (exit.kind === 'upstream') {
    return connectViaUpstream(exit.upstream, address, port, timeoutMs);
  }
  return new Promise((resolve, reject) => {
    const socket = connectTarget({ host: address, port, localAddress: exit.localAddress });
    socket.setNoDelay(true);
    limitConnectTime(socket, timeoutMs);
    const onError = (error: Error) => {
      socket.destroy();
      reject(error);
    };
    socket.once('error', onError);
    socket.once('connect', () => {
      socket.off('error', onError);
      resolve(socket);
    });
  });
}

/** Rotating or sticky, per the targeting and the port: see chooseExit. */
export type ExitChoice = StickyChoice;

/**
 * Connects through a matching exit (the session's, when the targeting names one); when that exit
 * fails, another one is tried once, and a session moves to it.
 */
export async function connectThroughExit(
  exits: readonly Exit[],
  targeting: UsernameParams,
  address: string,
  port: number,
  choice: ExitChoice,
  timeoutMs: number,
): Promise<{ exit: Exit; socket: Socket }> {
  const first = chooseExit(exits, targeting, choice);
  try {
    return { exit: first, socket: await openFrom(first, address, port, timeoutMs) };
  } catch {
    const second = pickExit(exits, targeting, first.id);
    const key = sessionKey(choice, targeting);
    if (key) {
      choice.sessions.bind(key, second, sessionTtlMs(choice, targeting));
    }
    try {
      return { exit: second, socket: await openFrom(second, address, port, timeoutMs) };
    } catch {
      throw new GatewayError('NO_HOST_CONNECTION', `Cannot connect to port ${port} of the target`);
    }
  }
}
